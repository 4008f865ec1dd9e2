package dev.twstester.io;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Run by {@link HugeInputTest} in a child JVM with a small heap and stack: reads one hostile file
 * ({@code args[0]}: what reads it, {@code args[1]}: the file) and prints {@code OK ...} or the
 * reader's error ({@code ERROR class: message}); an {@link OutOfMemoryError} or
 * {@link StackOverflowError} ends the JVM with a non-zero exit.
 */
public final class HugeInputChild {
    static final StructType SCHEMA = new StructType().add("s", DataTypes.StringType).add("i", DataTypes.IntegerType);

    private HugeInputChild() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[1]);
        try {
            System.out.println("OK " + read(args[0], file));
        } catch (IllegalArgumentException e) {
            String m = String.valueOf(e.getMessage());
            System.out.println("ERROR " + e.getClass().getSimpleName() + ": " + (m.length() > 300 ? m.substring(0, 300) : m)
                    + " (" + m.length() + " characters)");
        }
        long used = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
        System.out.println("heap in use at the end: " + used / (1 << 20) + " MB");
    }

    private static String read(String reader, Path file) throws Exception {
        switch (reader) {
            case "events" -> {
                List<Row> rows = JsonLines.rows(SCHEMA, note -> System.out.println("note " + note.substring(0,
                        Math.min(200, note.length())))).read(file, "huge.jsonl");
                return rows.size() + " rows, first s of " + (rows.get(0).isNullAt(0) ? "null" : rows.get(0).getString(0)
                        .length()) + " characters, i " + rows.get(0).get(1);
            }
            case "plan" -> {
                return ScenarioPlan.read(file).steps().size() + " steps";
            }
            case "run" -> {
                return RunResultJson.readLines(Files.readString(file), RunResultJsonFuzzTest.READINGS).batches().size()
                        + " batches";
            }
            default -> throw new IllegalStateException("no reader " + reader);
        }
    }
}
