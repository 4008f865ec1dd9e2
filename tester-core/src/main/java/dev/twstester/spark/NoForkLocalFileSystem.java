package dev.twstester.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system for the live runs' checkpoints, minus its one slow habit: without
 * Hadoop's native library, {@link RawLocalFileSystem#setPermission} forks a {@code chmod} process
 * for every file and folder it creates, and forking this JVM costs more than the write. Here the
 * same permission bits are set through {@code java.nio}. No {@code .crc} side files are written
 * either (the checkpoint is a temporary folder read back by the same JVM; files without one are
 * read unchecked, as Hadoop does). Used only by sessions that set {@code fs.file.impl} to it, with
 * the file system cache off for them ({@link LiveSpark#FAST_SETTINGS}); a {@link LocalFileSystem}
 * because Spark casts {@code FileSystem.getLocal}'s result to one.
 */
final class NoForkLocalFileSystem extends LocalFileSystem {
    NoForkLocalFileSystem() {
        super(new Raw());
    }

    @Override
    public void initialize(java.net.URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        setWriteChecksum(false);
    }

    /** The raw file system underneath, with the permission calls in Java. */
    static final class Raw extends RawLocalFileSystem {
        @Override
        public void setPermission(Path p, FsPermission permission) throws IOException {
            Files.setPosixFilePermissions(pathToFile(p).toPath(), posix(permission.toShort()));
        }
    }

    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
    };

    /** The read, write and execute bits of a Unix mode (Hadoop sets no sticky bit on checkpoint files). */
    static Set<PosixFilePermission> posix(short mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (int i = 0; i < BITS.length; i++) {
            if ((mode & (1 << i)) != 0) {
                set.add(BITS[i]);
            }
        }
        return set;
    }
}
