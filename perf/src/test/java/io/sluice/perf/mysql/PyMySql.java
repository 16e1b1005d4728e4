package io.sluice.perf.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * PyMySQL, where this host's Python has it (Debian's {@code python3-pymysql}): runs a statement with
 * {@code pymysql_rows.py} and compares the rows, each cell tagged with the Python type PyMySQL made of it,
 * with DuckDB's: integers int, decimals decimal.Decimal (and 128-bit integers, DuckDB's HUGEINT sums, as
 * DECIMAL(38,0) like MySQL's SUM), averages float, dates datetime.date, strings str, NULL None. Without it
 * the calling test is skipped.
 */
public final class PyMySql {
    private final Path python;
    private final Path script;

    private PyMySql(final Path python, final Path script) {
        this.python = python;
        this.script = script;
    }

    /** A Python that imports pymysql, with the script written into {@code dir}; skips the test when there is none. */
    public static PyMySql find(final Path dir) throws Exception {
        for (final String candidate : List.of("python3", "/usr/bin/python3")) {
            try {
                final Process p = new ProcessBuilder(candidate, "-c", "import pymysql").redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    final Path script = dir.resolve("pymysql_rows.py");
                    try (InputStream in = PyMySql.class.getResourceAsStream("pymysql_rows.py")) {
                        Files.write(script, in.readAllBytes());
                    }
                    return new PyMySql(Path.of(candidate), script);
                }
            } catch (final IOException e) {
                // No such interpreter: try the next.
            }
        }
        assumeThat(false).as("no python3 here imports pymysql (Debian package python3-pymysql)").isTrue();
        return null;
    }

    /** The lines the script printed for {@code sql}. */
    public List<String> run(final int port, final String sql) throws Exception {
        final Process p = new ProcessBuilder(python.toString(), script.toString(), Integer.toString(port))
                .redirectErrorStream(true).start();
        p.getOutputStream().write(sql.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return List.of(out.split("\n"));
    }

    /** Compares the script's lines with DuckDB's rows (labels first, from {@link JdbcAnswers#read}). */
    public static void assertSame(final String name, final List<List<Object>> expected, final List<String> printed) {
        assertThat(printed).as("%s lines", name).hasSize(expected.size());
        assertThat(List.of(printed.get(0).split("\t", -1))).as("%s labels", name).isEqualTo(expected.get(0));
        for (int r = 1; r < expected.size(); r++) {
            final String[] cells = printed.get(r).split("\t", -1);
            assertThat(cells).as("%s row %d", name, r).hasSize(expected.get(r).size());
            for (int c = 0; c < cells.length; c++) {
                final Object e = expected.get(r).get(c);
                final String cell = cells[c];
                final String where = name + " row " + r + " column " + expected.get(0).get(c);
                if (e == null) {
                    assertThat(cell).as(where).isEqualTo("N");
                } else if (e instanceof Double d) {
                    assertThat(cell).as(where).startsWith("F:");
                    assertThat(Math.abs(Double.parseDouble(cell.substring(2)) - d)).as(where + ": " + cell + " vs " + d)
                            .isLessThanOrEqualTo(1e-9 * Math.abs(d));
                } else if (e instanceof BigDecimal b) {
                    assertThat(cell).as(where).startsWith("D:");
                    assertThat(new BigDecimal(cell.substring(2))).as(where).isEqualByComparingTo(b);
                } else if (e instanceof BigInteger i) {
                    // DuckDB's HUGEINT (a SUM of integers) is Sluice's 128-bit integer: DECIMAL(38,0), as MySQL types it.
                    assertThat(cell).as(where).isEqualTo("D:" + i);
                } else if (e instanceof Number n) {
                    assertThat(cell).as(where).isEqualTo("I:" + n);
                } else if (e instanceof String s) {
                    assertThat(cell).as(where).isEqualTo("S:\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
                } else {
                    assertThat(cell).as(where).isEqualTo("T:" + e);
                }
            }
        }
    }
}
