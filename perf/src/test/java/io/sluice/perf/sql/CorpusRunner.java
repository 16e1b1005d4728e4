package io.sluice.perf.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.duckdb.DuckDbText;
import io.sluice.sql.PlannedQuery;
import io.sluice.sql.SqlException;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.StoreCatalog;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Runs the statements of a corpus directory ({@code *.sql} files, one test per statement, named
 * {@code file:line}) against Sluice and DuckDB over the same tables: each statement is planned by
 * {@link SqlPlanner}, run on one CN's worker threads and on an embedded 3x2 cluster, and must give
 * DuckDB's column names and rows (in order under a top-level ORDER BY, else as a multiset; NULLs as
 * NULLs; doubles within a relative 1e-9); Sluice reads names quoted with backquotes, DuckDB the
 * same text with them, and the words it reserves that Spark's texts use as names, double-quoted
 * ({@link DuckDbText}). A statement after a line {@code -- error: text} must
 * instead fail in Sluice with a {@link SqlException} containing the text.
 */
final class CorpusRunner {
    private static final double RELATIVE_TOLERANCE = 1e-9;
    private static final Pattern ERROR = Pattern.compile("--\\s*error:\\s*(.+)");
    private static final Pattern ORDER_BY = Pattern.compile("\\border\\s+by\\b");

    private final StoreCatalog catalog;
    private final SqlPlanner planner;
    private final List<Session> clusters;
    private final boolean oneCn;
    private final Connection duck;

    /** Runs each statement on one CN's 3 workers and on {@code session}'s cluster. */
    CorpusRunner(final StoreCatalog catalog, final SqlPlanner planner, final Session session, final Connection duck) {
        this(catalog, planner, List.of(session), true, duck);
    }

    /**
     * Runs each statement on each of {@code clusters}, and on one CN's 3 workers when {@code oneCn}.
     */
    CorpusRunner(final StoreCatalog catalog, final SqlPlanner planner, final List<Session> clusters,
                 final boolean oneCn, final Connection duck) {
        this.catalog = catalog;
        this.planner = planner;
        this.clusters = List.copyOf(clusters);
        this.oneCn = oneCn;
        this.duck = duck;
    }

    /** One statement of a corpus file: where it starts, its text, and the error it must give, or null. */
    record Case(String file, int line, String sql, String error) {
        String name() {
            return file + ":" + line;
        }
    }

    /** One test per statement of every {@code *.sql} file in {@code root}. */
    Stream<DynamicTest> tests(final Path root) throws IOException {
        final List<Path> files;
        try (Stream<Path> listed = Files.list(root)) {
            files = listed.filter(p -> p.getFileName().toString().endsWith(".sql")).sorted().toList();
        }
        assertThat(files).as("statement files in %s", root).isNotEmpty();
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Path file : files) {
            for (final Case c : cases(file)) {
                tests.add(DynamicTest.dynamicTest(c.name(), () -> check(c)));
            }
        }
        return tests.stream();
    }

    /** The statements of a file: each ends with {@code ;} at the end of a line; {@code --} lines are comments. */
    static List<Case> cases(final Path file) throws IOException {
        final String name = file.getFileName().toString();
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        final List<Case> cases = new ArrayList<>();
        final StringBuilder sql = new StringBuilder();
        String error = null;
        int start = 0;
        for (int n = 1; n <= lines.size(); n++) {
            final String line = lines.get(n - 1);
            final String trimmed = line.strip();
            if (trimmed.startsWith("--")) {
                final Matcher m = ERROR.matcher(trimmed);
                if (m.matches() && sql.length() == 0) {
                    error = m.group(1).strip();
                }
                continue;
            }
            if (trimmed.isEmpty() && sql.length() == 0) {
                continue;
            }
            if (sql.length() == 0) {
                start = n;
            }
            sql.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                cases.add(new Case(name, start, sql.toString().strip(), error));
                sql.setLength(0);
                error = null;
            }
        }
        if (sql.length() > 0) {
            cases.add(new Case(name, start, null, "the statement at " + name + ":" + start + " does not end with ;"));
        }
        return cases;
    }

    /** Checks one statement against DuckDB; an {@link AssertionError} says how it differs. */
    void check(final Case c) throws Exception {
        if (c.sql() == null) {
            fail(c.error() + ": end every statement with ; at the end of a line");
        }
        if (c.error() != null) {
            expectError(c);
            return;
        }
        final Answer expected = duckDb(c.sql());
        final PlannedQuery planned;
        try {
            planned = planner.plan(c.sql());
        } catch (final RuntimeException e) {
            throw new AssertionError(c.name() + ": Sluice cannot plan it: " + e + "\nDuckDB answers:\n" + expected, e);
        }
        final boolean ordered = hasTopLevelOrderBy(c.sql());
        if (oneCn) {
            final QueryResult local;
            try (QueryRunner runner = new QueryRunner(catalog, 3, StrategyConfig.defaults())) {
                local = run(c, "on one CN's 3 workers", expected, () -> runner.run(planned.plan()));
            }
            compare(c, "on one CN's 3 workers", expected, answer(local, planned.columns()), ordered);
        }
        for (final Session session : clusters) {
            final String where = "on a " + session.topology() + " cluster";
            final QueryResult cluster = run(c, where, expected,
                    () -> session.execute(c.name(), planned.plan(), StrategyConfig.defaults()).result());
            compare(c, where, expected, answer(cluster, planned.columns()), ordered);
        }
    }

    /** Runs a planned statement; a failure names the statement and shows DuckDB's answer. */
    private QueryResult run(final Case c, final String where, final Answer expected,
                                   final Supplier<QueryResult> execution) {
        try {
            return execution.get();
        } catch (final RuntimeException e) {
            throw new AssertionError(c.name() + " " + where + ": Sluice fails: " + e + "\n" + c.sql()
                    + "\nDuckDB answers:\n" + expected, e);
        }
    }

    private void expectError(final Case c) {
        try {
            final PlannedQuery planned = planner.plan(c.sql());
            try (QueryRunner runner = new QueryRunner(catalog, 3, StrategyConfig.defaults())) {
                final QueryResult result = runner.run(planned.plan());
                fail(c.name() + ": expected a SqlException containing '" + c.error() + "', but Sluice answered:\n"
                        + answer(result, planned.columns()));
            }
        } catch (final SqlException e) {
            assertThat(e.getMessage()).as(c.name() + ": the error").contains(c.error());
        }
    }

    /** Whether the statement orders its result: ORDER BY outside every parenthesis and string. */
    static boolean hasTopLevelOrderBy(final String sql) {
        final StringBuilder outside = new StringBuilder();
        int depth = 0;
        boolean quoted = false;
        for (int i = 0; i < sql.length(); i++) {
            final char ch = sql.charAt(i);
            if (ch == '\'') {
                quoted = !quoted;
            } else if (!quoted && ch == '(') {
                depth++;
            } else if (!quoted && ch == ')') {
                depth--;
            } else if (!quoted && depth == 0) {
                outside.append(ch);
            }
        }
        return ORDER_BY.matcher(outside.toString().toLowerCase(Locale.ROOT)).find();
    }

    /** A result: column names and rows of normalised cells (see {@link #cell}). */
    record Answer(List<String> names, List<List<Object>> rows) {
        @Override
        public String toString() {
            final StringBuilder sb = new StringBuilder("  ").append(String.join(" | ", names)).append('\n');
            for (final List<Object> row : rows) {
                sb.append("  ");
                for (int c = 0; c < row.size(); c++) {
                    sb.append(c == 0 ? "" : " | ").append(row.get(c) == null ? "NULL" : row.get(c));
                }
                sb.append('\n');
            }
            return sb.append("  (").append(rows.size()).append(rows.size() == 1 ? " row)" : " rows)").toString();
        }
    }

    /** DuckDB's answer; names quoted with backquotes (Spark's texts) are double-quoted first, as DuckDB reads them. */
    private synchronized Answer duckDb(final String sql) throws SQLException {
        try (Statement s = duck.createStatement();
             ResultSet rs = s.executeQuery(DuckDbText.of(sql))) {
            final ResultSetMetaData meta = rs.getMetaData();
            final List<String> names = new ArrayList<>();
            for (int c = 1; c <= meta.getColumnCount(); c++) {
                names.add(meta.getColumnLabel(c));
            }
            final List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                final List<Object> row = new ArrayList<>();
                for (int c = 1; c <= names.size(); c++) {
                    row.add(cell(rs.getObject(c)));
                }
                rows.add(row);
            }
            return new Answer(names, rows);
        }
    }

    /** Sluice's answer, its columns named as the planner names the statement's (two may share a name). */
    private static Answer answer(final QueryResult result, final List<String> columns) {
        final List<List<Object>> rows = new ArrayList<>();
        for (final List<Object> row : result.rows()) {
            final List<Object> cells = new ArrayList<>();
            for (final Object v : row) {
                cells.add(cell(v));
            }
            rows.add(cells);
        }
        return new Answer(columns, rows);
    }

    /** A cell both engines write alike: exact numbers as BigDecimal, doubles as Double, dates and strings as text. */
    private static Object cell(final Object v) {
        if (v == null || v instanceof Double || v instanceof String || v instanceof Boolean) {
            return v;
        }
        if (v instanceof Float f) {
            return f.doubleValue();
        }
        if (v instanceof BigDecimal b) {
            return b;
        }
        if (v instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (v instanceof Number n) {
            return BigDecimal.valueOf(n.longValue());
        }
        if (v instanceof LocalDate d) {
            return d.toString();
        }
        // DuckDB's JDBC date class varies by version; its text form does not.
        return v.toString();
    }

    private static void compare(final Case c, final String where, final Answer expected, final Answer actual,
                                final boolean ordered) {
        final String both = "\n" + c.sql() + "\nDuckDB:\n" + expected + "\nSluice " + where + ":\n" + actual;
        if (!expected.names().equals(actual.names())) {
            fail(c.name() + " " + where + ": column names differ" + both);
        }
        final List<List<Object>> want = ordered ? expected.rows() : canonical(expected.rows());
        final List<List<Object>> got = ordered ? actual.rows() : canonical(actual.rows());
        if (want.size() != got.size()) {
            fail(c.name() + " " + where + ": " + got.size() + " rows, DuckDB has " + want.size() + both);
        }
        for (int r = 0; r < want.size(); r++) {
            for (int col = 0; col < expected.names().size(); col++) {
                if (!same(want.get(r).get(col), got.get(r).get(col))) {
                    fail(c.name() + " " + where + ": " + (ordered ? "row " : "sorted row ") + r + " column "
                            + expected.names().get(col) + " is " + got.get(r).get(col) + ", DuckDB has "
                            + want.get(r).get(col) + both);
                }
            }
        }
    }

    /** Rows in one order that does not depend on the engine: by their cells' text, doubles rounded. */
    private static List<List<Object>> canonical(final List<List<Object>> rows) {
        final List<List<Object>> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(CorpusRunner::key));
        return sorted;
    }

    private static String key(final List<Object> row) {
        final StringBuilder sb = new StringBuilder();
        for (final Object v : row) {
            final String text;
            if (v == null) {
                text = "\u0000";
            } else if (v instanceof Double d) {
                text = String.format(Locale.ROOT, "%.6e", d);
            } else if (v instanceof BigDecimal b) {
                text = b.stripTrailingZeros().toPlainString();
            } else {
                text = v.toString();
            }
            sb.append(text).append('\u0001');
        }
        return sb.toString();
    }

    private static boolean same(final Object expected, final Object actual) {
        if (expected == null || actual == null) {
            return expected == actual;
        }
        if (expected instanceof Double e) {
            if (!(actual instanceof Double a)) {
                return false;
            }
            if (e.isNaN() || e.isInfinite() || a.isNaN() || a.isInfinite()) {
                return e.equals(a);
            }
            return Math.abs(a - e) <= RELATIVE_TOLERANCE * Math.abs(e);
        }
        if (expected instanceof BigDecimal e) {
            return actual instanceof BigDecimal a && e.compareTo(a) == 0;
        }
        return expected.equals(actual);
    }
}
