package io.sluice.perf.tpcds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The TPC-DS query texts of a folder, by name ({@code 01} ... {@code 99}, a query of two
 * statements as {@code 14a} and {@code 14b}): a query's text is its {@code qN.sql} there
 * ({@code q14a.sql}, Apache Spark SQL's naming), else its {@code NN.sql} (DuckDB's naming; for a
 * query of two parts, its {@code NN.sql} is the first). The repository does not carry the texts:
 * {@link #WHERE} says where to get them.
 */
public final class TpcdsQueryFolder {
    /** Where the texts come from, for error messages and help. */
    public static final String WHERE = "a folder of the TPC-DS query texts: DuckDB's NN.sql"
            + " (extension/tpcds/dsdgen/queries/ of github.com/duckdb/duckdb) or Apache Spark's qN.sql"
            + " (sql/core/src/test/resources/tpcds/ of github.com/apache/spark)";

    private TpcdsQueryFolder() {
    }

    /**
     * Each query's text by name, in query order; a query without a text in the folder is left out.
     *
     * @throws IllegalArgumentException when the folder does not exist or holds no query text
     */
    public static Map<String, String> load(final Path folder) {
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException("--queries-dir " + folder + " is not a directory: give " + WHERE);
        }
        final Map<String, String> out = new LinkedHashMap<>();
        for (int q = 1; q <= 99; q++) {
            final String whole = text(folder, "q" + q + ".sql", String.format("%02d.sql", q));
            if (whole != null) {
                out.put(String.format("%02d", q), whole);
                continue;
            }
            for (final String part : new String[] {"a", "b"}) {
                final String text = text(folder, "q" + q + part + ".sql",
                        part.equals("a") ? String.format("%02d.sql", q) : String.format("%02d%s.sql", q, part));
                if (text != null) {
                    out.put(String.format("%02d%s", q, part), text);
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--queries-dir " + folder + " holds no TPC-DS query text (qN.sql or"
                    + " NN.sql): give " + WHERE);
        }
        return out;
    }

    private static String text(final Path folder, final String first, final String second) {
        for (final String name : new String[] {first, second}) {
            final Path file = folder.resolve(name);
            if (Files.isRegularFile(file)) {
                try {
                    return Files.readString(file, StandardCharsets.UTF_8).strip();
                } catch (final IOException e) {
                    throw new UncheckedIOException("cannot read TPC-DS query text " + file + ": " + e.getMessage(), e);
                }
            }
        }
        return null;
    }
}
