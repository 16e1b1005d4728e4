package io.sluice.perf.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The TPC-DS query texts by name ({@code 01} ... {@code 99}, the queries of two statements as
 * {@code 14a} and {@code 14b}): by default the classpath resources {@code tpcds/qN.sql} of Apache
 * Spark SQL's test jar ({@code org.apache.spark:spark-sql_2.13} classifier {@code tests}, a
 * test-scope dependency of perf), so that the repository does not carry them. A folder named by
 * {@code -Dsluice.tpcds.queries=DIR} (or {@code SLUICE_TPCDS_QUERIES=DIR}) replaces them: a query's
 * text is its {@code qN.sql} there ({@code q14a.sql}), else its {@code NN.sql} (DuckDB's naming;
 * for a query of two statements, the first's).
 */
final class TpcdsQueryTexts {
    static final String PROPERTY = "sluice.tpcds.queries";
    static final String ENV = "SLUICE_TPCDS_QUERIES";
    private static final String RESOURCE = "/tpcds/q%s.sql";

    private TpcdsQueryTexts() {
    }

    /** The folder the property or the variable names, or null for the classpath texts. */
    static Path overrideFolder() {
        String folder = System.getProperty(PROPERTY);
        if (folder == null || folder.isBlank()) {
            folder = System.getenv(ENV);
        }
        return folder == null || folder.isBlank() ? null : Path.of(folder);
    }

    /** Each query's text by name, in query order; a name without a text (in the folder) is left out. */
    static Map<String, String> load(final Path folder) {
        final Map<String, String> out = new LinkedHashMap<>();
        for (int q = 1; q <= 99; q++) {
            if (TpcdsQueryTexts.class.getResource(String.format(RESOURCE, q)) != null) {
                put(out, folder, q, "");
            } else {
                put(out, folder, q, "a");
                put(out, folder, q, "b");
            }
        }
        return out;
    }

    private static void put(final Map<String, String> out, final Path folder, final int q, final String part) {
        final String name = String.format("%02d%s", q, part);
        final String text = folder == null ? resource(q + part) : file(folder, q, part);
        if (text != null) {
            out.put(name, text.strip());
        }
    }

    private static String resource(final String query) {
        try (InputStream in = TpcdsQueryTexts.class.getResourceAsStream(String.format(RESOURCE, query))) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String file(final Path folder, final int q, final String part) {
        Path file = folder.resolve("q" + q + part + ".sql");
        if (!Files.exists(file)) {
            file = part.equals("b") ? null : folder.resolve(String.format("%02d.sql", q));
        }
        try {
            return file != null && Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
