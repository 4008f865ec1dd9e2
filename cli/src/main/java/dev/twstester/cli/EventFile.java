package dev.twstester.cli;

import java.nio.file.Path;

/**
 * One input file: one micro-batch.
 *
 * @param path    the file
 * @param display the path as messages show it: the argument as given, or the folder as given
 *                joined with the file name ({@code cart/002.jsonl})
 */
record EventFile(Path path, String display) {
    /** The file name, e.g. {@code 002.jsonl}. */
    String name() {
        return path.getFileName().toString();
    }

    @Override
    public String toString() {
        return display;
    }
}
