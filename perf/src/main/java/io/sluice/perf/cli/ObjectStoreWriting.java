package io.sluice.perf.cli;

import io.sluice.s3.S3Location;
import io.sluice.s3.S3Objects;
import io.sluice.s3.S3Settings;
import io.sluice.s3.S3StoreWrite;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * A writing command ({@code gen}, {@code import}) whose store is {@code s3://BUCKET/PREFIX}: it takes the store's
 * lock on object storage, writes into a local directory holding the store's manifests as into a local store, and
 * uploads the tables it wrote (block files first, each manifest last) when it succeeds.
 */
final class ObjectStoreWriting {
    /** What the command does to a store directory; returns its exit code. */
    @FunctionalInterface
    interface Write {
        /** Writes into the store directory {@code dir}. */
        int into(Path dir) throws IOException;
    }

    private ObjectStoreWriting() {
    }

    /**
     * Runs {@code write} for the store at {@code where} (an {@code s3://} location) and uploads what it wrote when it
     * returns 0.
     */
    static int run(final Path where, final String commandLine, final PrintWriter out, final Write write)
            throws IOException {
        final S3Location location = S3Location.parse(where.toString());
        try (S3Objects objects = new S3Objects(location, S3Settings.fromEnvironment());
             S3StoreWrite writing = S3StoreWrite.begin(objects, commandLine)) {
            final int code = write.into(writing.dir());
            if (code != 0) {
                return code;
            }
            final List<String> uploaded = writing.publish();
            out.println("uploaded " + (uploaded.isEmpty() ? "no table" : String.join(", ", uploaded)) + " to "
                    + location);
            out.flush();
            return 0;
        }
    }
}
