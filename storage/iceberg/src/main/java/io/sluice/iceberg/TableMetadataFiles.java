package io.sluice.iceberg;

import io.sluice.format.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Finds a table folder's current metadata file without a catalog, as Iceberg's file-system tables do:
 * {@code metadata/version-hint.text} names version N ({@code vN.metadata.json}); without it, the file of the
 * highest version number ({@code vN.metadata.json} or {@code NNNNN-UUID.metadata.json}).
 */
final class TableMetadataFiles {
    private static final String SUFFIX = ".metadata.json";

    private TableMetadataFiles() {
    }

    /**
     * The current metadata file of the table in {@code folder}.
     *
     * @throws StorageException when it has none, naming the folder
     */
    static Path latest(final Path folder) {
        final Path metadata = folder.resolve("metadata");
        try {
            final Path hint = metadata.resolve("version-hint.text");
            if (Files.isRegularFile(hint)) {
                final Path named = metadata.resolve("v" + Files.readString(hint, StandardCharsets.UTF_8).trim() + SUFFIX);
                if (Files.isRegularFile(named)) {
                    return named;
                }
            }
            Path best = null;
            long bestVersion = -1;
            try (Stream<Path> entries = Files.list(metadata)) {
                for (final Path p : entries.toList()) {
                    final long v = versionOf(p.getFileName().toString());
                    if (v > bestVersion) {
                        bestVersion = v;
                        best = p;
                    }
                }
            }
            if (best == null) {
                throw new StorageException("iceberg table folder " + folder + " has no metadata file (metadata/*"
                        + SUFFIX + "): give the folder of a table an Iceberg writer made");
            }
            return best;
        } catch (final IOException e) {
            throw new StorageException("iceberg table folder " + folder + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** The version a metadata file's name carries, or -1 when it is not one. */
    static long versionOf(final String file) {
        if (!file.endsWith(SUFFIX)) {
            return -1;
        }
        int start = file.startsWith("v") ? 1 : 0;
        int end = start;
        while (end < file.length() && Character.isDigit(file.charAt(end))) {
            end++;
        }
        if (end == start || end - start > 18) {
            return -1;
        }
        return Long.parseLong(file.substring(start, end));
    }
}
