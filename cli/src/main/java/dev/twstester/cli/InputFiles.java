package dev.twstester.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.apache.spark.util.HadoopFSUtils;

/**
 * The event files a replay reads: each file argument as is, and every file of each folder as
 * Spark's JSON file source reads it (whatever its extension), except the names Spark's file
 * listing skips ({@link HadoopFSUtils#shouldFilterOutPathName}: starting with {@code _} or
 * {@code .}, or ending in {@code ._COPYING_}), a replay plan ({@code scenario.txt}) and subfolders;
 * what a folder skips is noted on stderr. The files run in natural order of their labels
 * ({@link EventFile#label}): numbers in names compare as numbers ({@code 1.jsonl, 2.jsonl,
 * 10.jsonl}), and two names that differ only in leading zeros ({@code 1.jsonl}, {@code 01.jsonl})
 * are a usage error, as their order is ambiguous.
 */
final class InputFiles {
    /** The replay plan a folder may hold, as {@code GenScenario.writeBatchFiles} writes it. */
    static final String PLAN_NAME = "scenario.txt";

    /** In natural order: runs of digits compare by their number, the rest character by character. */
    static final Comparator<String> NATURAL = InputFiles::compareNatural;

    private InputFiles() {}

    /**
     * The files {@code arguments} stand for, labelled and in replay order; {@code planInUse} (or
     * null) is the replay plan, not an event file; what folders skip is noted on {@code notes}, but
     * for a {@code scenario.txt} when {@code noPlan} ({@code --no-plan} says to ignore it).
     */
    static List<EventFile> collect(List<Path> arguments, Path planInUse, boolean noPlan, PrintWriter notes) {
        Path plan = planInUse == null ? null : planInUse.toAbsolutePath().normalize();
        List<EventFile> files = new ArrayList<>();
        for (Path arg : arguments) {
            if (Files.isDirectory(arg)) {
                files.addAll(folder(arg, plan, noPlan, notes));
            } else if (Files.isRegularFile(arg)) {
                files.add(new EventFile(arg, arg.toString()));
            } else {
                throw CliException.usage(arg + ": no such file or folder");
            }
        }
        Set<Path> seen = new HashSet<>();
        for (EventFile f : files) {
            if (!seen.add(absolute(f))) {
                throw CliException.usage(f.display() + " is given twice; each file is one micro-batch, name it once");
            }
        }
        List<EventFile> labelled = labelled(files);
        List<EventFile> sorted = new ArrayList<>(labelled);
        sorted.sort(Comparator.comparing(EventFile::label, NATURAL));
        for (int i = 1; i < sorted.size(); i++) {
            EventFile a = sorted.get(i - 1);
            EventFile b = sorted.get(i);
            if (compareNatural(a.label(), b.label()) == 0) {
                throw CliException.usage(a.display() + " and " + b.display() + ": the names differ only in leading"
                        + " zeros, so which runs first is ambiguous (files run in natural order: 1, 2, 10); rename"
                        + " one, e.g. pad every number to the same width");
            }
        }
        return sorted;
    }

    /**
     * Labels: the file name when all files are in one folder, else the path below the deepest
     * folder they are all in ({@code day1/001.jsonl}, {@code day2/001.jsonl}).
     */
    private static List<EventFile> labelled(List<EventFile> files) {
        Set<Path> parents = new LinkedHashSet<>();
        files.forEach(f -> parents.add(absolute(f).getParent()));
        if (parents.size() <= 1) {
            return files;
        }
        Path common = null;
        for (Path p : parents) {
            common = common == null ? p : commonAncestor(common, p);
        }
        List<EventFile> result = new ArrayList<>();
        for (EventFile f : files) {
            Path relative = common == null ? absolute(f) : common.relativize(absolute(f));
            result.add(f.withLabel(relative.toString().replace(File.separatorChar, '/')));
        }
        return result;
    }

    private static Path commonAncestor(Path a, Path b) {
        Path c = a;
        while (c != null && !b.startsWith(c)) {
            c = c.getParent();
        }
        return c;
    }

    private static Path absolute(EventFile f) {
        return f.path().toAbsolutePath().normalize();
    }

    /** Spark's file listing skips this name ({@code _SUCCESS}, {@code .DS_Store}, {@code x.json._COPYING_}). */
    static boolean sparkSkips(String name) {
        return HadoopFSUtils.shouldFilterOutPathName(name);
    }

    private static List<EventFile> folder(Path folder, Path plan, boolean noPlan, PrintWriter notes) {
        List<Path> entries;
        try (Stream<Path> listing = Files.list(folder)) {
            entries = listing.sorted(Comparator.comparing(p -> p.getFileName().toString(), NATURAL)).toList();
        } catch (IOException e) {
            throw CliException.usage(folder + ": cannot list the folder: " + e.getMessage(), e);
        }
        List<EventFile> files = new ArrayList<>();
        List<String> hidden = new ArrayList<>();
        List<String> subfolders = new ArrayList<>();
        List<String> plans = new ArrayList<>();
        for (Path p : entries) {
            String name = p.getFileName().toString();
            if (sparkSkips(name)) {
                hidden.add(name + (Files.isDirectory(p) ? "/" : ""));
            } else if (Files.isDirectory(p)) {
                subfolders.add(name + "/");
            } else if (!Files.isRegularFile(p) || p.toAbsolutePath().normalize().equals(plan)) {
                continue;   // not a file; or the plan this replay follows
            } else if (name.equals(PLAN_NAME)) {
                if (!noPlan) {
                    plans.add(name);
                }
            } else {
                files.add(new EventFile(p, folder.resolve(p.getFileName()).toString()));
            }
        }
        List<String> skipped = new ArrayList<>();
        if (!hidden.isEmpty()) {
            skipped.add(String.join(", ", hidden) + " (Spark's file source skips names starting with _ or . and"
                    + " ending in ._COPYING_ too)");
        }
        if (!subfolders.isEmpty()) {
            skipped.add(String.join(", ", subfolders) + " (subfolders are not replayed; give one as an argument to"
                    + " replay its files)");
        }
        if (!plans.isEmpty()) {
            skipped.add(PLAN_NAME + " (a replay plan, never an event file; this replay follows "
                    + (plan == null ? "no plan" : "the plan " + plan) + ")");
        }
        if (files.isEmpty()) {
            throw CliException.usage(folder + ": no event file in this folder"
                    + (skipped.isEmpty() ? "" : "; skipped " + String.join("; ", skipped)));
        }
        if (!skipped.isEmpty()) {
            notes.println("twstester: " + folder + ": note: skipped " + String.join("; ", skipped));
        }
        return files;
    }

    /** Natural order; 0 for equal strings and for names that differ only in leading zeros. */
    static int compareNatural(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i);
            char cb = b.charAt(j);
            if (isDigit(ca) && isDigit(cb)) {
                int ei = i;
                while (ei < a.length() && isDigit(a.charAt(ei))) {
                    ei++;
                }
                int ej = j;
                while (ej < b.length() && isDigit(b.charAt(ej))) {
                    ej++;
                }
                int si = i;
                while (si < ei - 1 && a.charAt(si) == '0') {
                    si++;
                }
                int sj = j;
                while (sj < ej - 1 && b.charAt(sj) == '0') {
                    sj++;
                }
                int byLength = Integer.compare(ei - si, ej - sj);
                if (byLength != 0) {
                    return byLength;
                }
                int byDigits = a.substring(si, ei).compareTo(b.substring(sj, ej));
                if (byDigits != 0) {
                    return byDigits;
                }
                i = ei;
                j = ej;
            } else {
                if (ca != cb) {
                    return Character.compare(ca, cb);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
