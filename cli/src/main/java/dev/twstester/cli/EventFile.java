package dev.twstester.cli;

import java.nio.file.Path;

/**
 * One input file: one micro-batch.
 *
 * @param path    the file
 * @param display the path as messages show it: the argument as given, or the folder as given
 *                joined with the file name ({@code cart/002.jsonl})
 * @param label   the file as batch labels, JSON lines, {@code --at} and plan messages name it: its
 *                name ({@code 002.jsonl}) when every file of the replay is in one folder, else its
 *                path below the folder all of them are in ({@code day1/002.jsonl})
 */
record EventFile(Path path, String display, String label) {
    /** A file labelled by its name. */
    EventFile(Path path, String display) {
        this(path, display, path.getFileName().toString());
    }

    /** The file name, e.g. {@code 002.jsonl}. */
    String name() {
        return path.getFileName().toString();
    }

    EventFile withLabel(String newLabel) {
        return new EventFile(path, display, newLabel);
    }

    @Override
    public String toString() {
        return display;
    }
}
