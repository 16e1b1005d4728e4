package io.sluice.storage;

import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * The small text file that makes a table directory a table: name, schema, counts, sort key. It is
 * written last, so a directory without one is an unfinished write, never a table.
 */
public record TableManifest(String name, Schema schema, long rowCount, int blockCount, long bytes, String sortKey) {
    /** File name of the manifest inside a table directory. */
    public static final String FILE = "manifest.properties";
    static final int FORMAT = 1;

    /** Writes the manifest atomically (temporary file, then rename). */
    public void write(final Path tableDir) {
        final Properties p = new Properties();
        p.setProperty("format", Integer.toString(FORMAT));
        p.setProperty("table", name);
        p.setProperty("schema", schema.toString());
        p.setProperty("rows", Long.toString(rowCount));
        p.setProperty("blocks", Integer.toString(blockCount));
        p.setProperty("bytes", Long.toString(bytes));
        if (sortKey != null) {
            p.setProperty("sortKey", sortKey);
        }
        final Path tmp = tableDir.resolve(FILE + ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "Sluice table manifest");
            }
            Files.move(tmp, tableDir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
        } catch (final IOException e) {
            throw new StorageException("cannot write manifest of table '" + name + "' in " + tableDir + ": " + e, e);
        }
    }

    /** Reads a table directory's manifest; the error says what is missing or malformed. */
    public static TableManifest read(final Path tableDir) {
        final Path file = tableDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new StorageException("table directory " + tableDir + " has no " + FILE
                    + ": it was not written completely; delete it and write the table again");
        }
        final Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (final IOException e) {
            throw new StorageException("cannot read " + file + ": " + e, e);
        }
        try {
            final int format = Integer.parseInt(required(p, "format", file));
            if (format != FORMAT) {
                throw new StorageException(file + " has format " + format + ", this build reads " + FORMAT);
            }
            return new TableManifest(required(p, "table", file), Schema.parse(required(p, "schema", file)),
                    Long.parseLong(required(p, "rows", file)), Integer.parseInt(required(p, "blocks", file)),
                    Long.parseLong(required(p, "bytes", file)), p.getProperty("sortKey"));
        } catch (final IllegalArgumentException e) {
            throw new StorageException(file + " is malformed: " + e.getMessage(), e);
        }
    }

    private static String required(final Properties p, final String key, final Path file) {
        final String value = p.getProperty(key);
        if (value == null) {
            throw new StorageException(file + " lacks '" + key + "'");
        }
        return value;
    }
}
