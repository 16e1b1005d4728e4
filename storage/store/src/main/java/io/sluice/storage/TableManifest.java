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
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The small text file that makes a table directory a table: name, schema, counts, sort key, the
 * version whose directory holds the blocks, and attributes the writer recorded (such as the TPC-H
 * scale factor). It is written last and replaced atomically, so a reader sees one complete version
 * or the next, never a mix; a directory without one is damaged, never a table.
 *
 * @param version    the version directory ({@code v1}, {@code v2}, ...) holding the blocks and the
 *                   zonemap index; 0 for a table of format 1, whose files lie in the table directory
 * @param attributes what the writer recorded about the rows (sorted by key)
 */
public record TableManifest(String name, Schema schema, long rowCount, int blockCount, long bytes, String sortKey,
                            int version, SortedMap<String, String> attributes) {
    /** File name of the manifest inside a table directory. */
    public static final String FILE = "manifest.properties";
    /** The temporary file a manifest is written to before it is renamed into place. */
    public static final String TEMPORARY_FILE = FILE + ".tmp";
    static final int FORMAT = 2;
    private static final int FIRST_FORMAT = 1;
    private static final String ATTRIBUTE = "attribute.";

    /** Copies {@code attributes}. */
    public TableManifest {
        attributes = Collections.unmodifiableSortedMap(new TreeMap<>(attributes));
    }

    /** The name of version {@code version}'s directory inside a table directory. */
    public static String versionDirName(final int version) {
        return "v" + version;
    }

    /** The directory holding this version's block files and zonemap index. */
    public Path dataDir(final Path tableDir) {
        return version == 0 ? tableDir : tableDir.resolve(versionDirName(version));
    }

    /** Writes the manifest atomically (temporary file, then rename over any previous one). */
    public void write(final Path tableDir) {
        final Properties p = new Properties();
        p.setProperty("format", Integer.toString(FORMAT));
        p.setProperty("table", name);
        p.setProperty("schema", schema.toString());
        p.setProperty("rows", Long.toString(rowCount));
        p.setProperty("blocks", Integer.toString(blockCount));
        p.setProperty("bytes", Long.toString(bytes));
        p.setProperty("version", Integer.toString(version));
        if (sortKey != null) {
            p.setProperty("sortKey", sortKey);
        }
        for (final Map.Entry<String, String> a : attributes.entrySet()) {
            p.setProperty(ATTRIBUTE + a.getKey(), a.getValue());
        }
        final Path tmp = tableDir.resolve(TEMPORARY_FILE);
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "Sluice table manifest");
            }
            Files.move(tmp, tableDir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (final IOException e) {
            throw new StorageException("cannot write manifest of table '" + name + "' in " + tableDir + ": " + e, e);
        }
    }

    /** Reads a table directory's manifest; the error says what is missing or malformed. */
    public static TableManifest read(final Path tableDir) {
        final Path file = tableDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new StorageException("table directory " + tableDir + " has no " + FILE
                    + ": it is damaged or was not written by Sluice; delete it and write the table again");
        }
        final Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (final IOException e) {
            throw new StorageException("cannot read " + file + ": " + e, e);
        }
        try {
            final int format = Integer.parseInt(required(p, "format", file));
            if (format != FORMAT && format != FIRST_FORMAT) {
                throw new StorageException(file + " has format " + format + ", this build reads " + FIRST_FORMAT
                        + " and " + FORMAT);
            }
            final int version = format == FIRST_FORMAT ? 0 : Integer.parseInt(required(p, "version", file));
            if (format == FORMAT && version < 1) {
                throw new IllegalArgumentException("version " + version + " is not 1 or more");
            }
            final SortedMap<String, String> attributes = new TreeMap<>();
            for (final String key : p.stringPropertyNames()) {
                if (key.startsWith(ATTRIBUTE)) {
                    attributes.put(key.substring(ATTRIBUTE.length()), p.getProperty(key));
                }
            }
            return new TableManifest(required(p, "table", file), Schema.parse(required(p, "schema", file)),
                    Long.parseLong(required(p, "rows", file)), Integer.parseInt(required(p, "blocks", file)),
                    Long.parseLong(required(p, "bytes", file)), p.getProperty("sortKey"), version, attributes);
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
