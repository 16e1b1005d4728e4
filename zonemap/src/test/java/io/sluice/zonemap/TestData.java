package io.sluice.zonemap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Helpers the tests compute with instead of the code under test. */
final class TestData {
    private TestData() {
    }

    /**
     * The prefix key of a string written out from its definition (first 8 UTF-8 bytes,
     * big-endian, zero-padded), independently of {@code StringKey}.
     */
    static long prefixKey(final String s) {
        final byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        long key = 0;
        for (int i = 0; i < 8; i++) {
            key = (key << 8) | (i < bytes.length ? bytes[i] & 0xFF : 0);
        }
        return key;
    }

    /** A null bitmap with the given rows set, in the storage layout (bit {@code i % 64} of word {@code i / 64}). */
    static long[] nullMask(final List<?> values, final int words) {
        final long[] mask = new long[words];
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null) {
                mask[i / 64] |= 1L << (i % 64);
            }
        }
        return mask;
    }

    /** A fresh temporary directory (jqwik properties get no JUnit {@code @TempDir}). */
    static Path tempDir() {
        try {
            return Files.createTempDirectory("sluice-zonemap-test");
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a directory tree. */
    static void delete(final Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
