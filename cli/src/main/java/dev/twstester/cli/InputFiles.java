package dev.twstester.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The event files a replay reads: each file argument as is, each folder's {@code *.jsonl} and
 * {@code *.json} files (not those starting with {@code .} or {@code _}, which Spark's file source
 * skips too), all in file-name order.
 */
final class InputFiles {
    /** The replay plan a folder may hold, as {@code GenScenario.writeBatchFiles} writes it. */
    static final String PLAN_NAME = "scenario.txt";

    private InputFiles() {}

    static List<EventFile> collect(List<Path> arguments) {
        List<EventFile> files = new ArrayList<>();
        for (Path arg : arguments) {
            if (Files.isDirectory(arg)) {
                List<EventFile> inFolder = folder(arg);
                if (inFolder.isEmpty()) {
                    throw CliException.usage(arg + ": no *.jsonl or *.json file in this folder");
                }
                files.addAll(inFolder);
            } else if (Files.isRegularFile(arg)) {
                files.add(new EventFile(arg, arg.toString()));
            } else {
                throw CliException.usage(arg + ": no such file or folder");
            }
        }
        files.sort(Comparator.comparing(EventFile::name).thenComparing(EventFile::display));
        Set<Path> seen = new HashSet<>();
        for (EventFile f : files) {
            if (!seen.add(f.path().toAbsolutePath().normalize())) {
                throw CliException.usage(f.display() + " is given twice; each file is one micro-batch, name it once");
            }
        }
        return files;
    }

    static boolean isEventFile(Path p) {
        String name = p.getFileName().toString();
        return Files.isRegularFile(p) && !name.startsWith(".") && !name.startsWith("_")
                && (name.endsWith(".jsonl") || name.endsWith(".json"));
    }

    private static List<EventFile> folder(Path folder) {
        try (Stream<Path> listing = Files.list(folder)) {
            return listing.filter(InputFiles::isEventFile)
                    .map(p -> new EventFile(p, folder.resolve(p.getFileName()).toString()))
                    .toList();
        } catch (IOException e) {
            throw CliException.usage(folder + ": cannot list the folder: " + e.getMessage(), e);
        }
    }
}
