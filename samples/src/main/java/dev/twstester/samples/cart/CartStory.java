package dev.twstester.samples.cart;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.sim.TwsSimulator;

/**
 * Replays cart event files through {@link CartWatch} in the simulator, one file per micro-batch,
 * and prints every batch Spark would run. Without arguments it replays the story files
 * {@code cart/001.jsonl .. 003.jsonl} from the classpath; {@code args[0]} may name a folder of
 * {@code *.jsonl} files instead (replayed in name order). Times are printed in UTC.
 */
public final class CartStory {
    private CartStory() {
    }

    public static void main(String[] args) {
        List<CartEventFiles.EventFile> files = args.length > 0
                ? CartEventFiles.folder(Path.of(args[0]))
                : CartEventFiles.story();
        replay(files, System.out);
    }

    /** Runs each file as one micro-batch (plus the no-data batch Spark follows it with) and prints every batch. */
    public static RunResult<String, CartEvent, CartAlert> replay(List<CartEventFiles.EventFile> files, PrintStream out) {
        TwsSimulator<String, CartEvent, CartAlert> sim = new TwsSimulator<>(CartWatch.query());
        out.println("CartWatch: a cart is abandoned " + CartWatch.IDLE.toMinutes() + " min (event time) after its last add;"
                + " watermark = max event time - " + CartWatch.WATERMARK_DELAY.toMinutes() + " min. Times in UTC.");
        for (CartEventFiles.EventFile file : files) {
            RunResult<String, CartEvent, CartAlert> run = sim.runBatch(file.events());
            for (BatchResult<String, CartEvent, CartAlert> batch : run.batches()) {
                print(batch, file.name(), out);
            }
        }
        RunResult<String, CartEvent, CartAlert> all = sim.history();
        out.println("total: " + all.batches().size() + " batches for " + files.size() + " files, "
                + all.outputs().size() + " alert(s); watermark now " + sim.watermark()
                + "; carts open: " + sim.state().keys());
        return all;
    }

    private static void print(BatchResult<String, CartEvent, CartAlert> b, String file, PrintStream out) {
        out.println("batch " + b.batchId() + (b.hadInput() ? " (data, " + file + ")" : " (no data, after " + file + ")"));
        out.println("  rows in: " + b.input().size() + ", dropped late: " + b.droppedLate().size()
                + (b.droppedLate().isEmpty() ? "" : " " + b.droppedLate()));
        out.println("  watermark: late " + b.lateWatermark() + ", eviction " + b.evictionWatermark());
        out.println("  batch timestamp: " + b.batchTimestamp());
        if (b.outputs().isEmpty()) {
            out.println("  outputs: none");
        } else {
            out.println("  outputs:");
            for (CartAlert alert : b.outputs()) {
                out.println("    " + alert);
            }
        }
        out.println("  timers fired: " + (b.firedTimers().isEmpty() ? "none"
                : b.firedTimers().stream().map(FiredTimer::toString).toList()));
    }
}
