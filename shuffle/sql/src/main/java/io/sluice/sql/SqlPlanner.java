package io.sluice.sql;

import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PlanNode;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.zonemap.TableStats;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexLiteral;

/**
 * Plans SQL SELECT statements over a catalog's tables into Sluice {@link Plan}s: the entry point
 * of the SQL layer. Calcite parses, validates and decorrelates ({@link SqlFrontEnd}); Sluice
 * translates the result ({@link RelTranslator}), prunes unread columns ({@link ColumnPruning}) and
 * names the result's columns as the SELECT list does. The plan then runs like any other: the
 * engine still chooses each join's and group-by's distribution. Table statistics are read from
 * zonemaps once per planner, and a statement planned before is not planned again: the planner
 * keeps the plans of the last {@value PlanCache#DEFAULT_CAPACITY} texts (system property
 * {@value PlanCache#CAPACITY_PROPERTY}, 0 to plan every statement). Both assume the tables stay as
 * they were while the planner is in use. One planner serves any number of statements, one at a
 * time or concurrently.
 *
 * <pre>{@code
 * SqlPlanner sql = new SqlPlanner(catalog, List.of("lineitem", "orders"));
 * QueryResult rows = runner.run(sql.plan("select count(*) from lineitem where l_quantity < 10").plan());
 * }</pre>
 */
public final class SqlPlanner {
    private final Catalog catalog;
    private final SqlFrontEnd frontEnd;
    /** The tables statements may name, in name order: constant rows scan none of the first's rows. */
    private final List<String> tables;
    private final Map<String, TableStats> stats = new ConcurrentHashMap<>();
    private final PlanCache plans;

    /**
     * A planner keeping as many plans as {@value PlanCache#CAPACITY_PROPERTY} says (by default
     * {@value PlanCache#DEFAULT_CAPACITY}).
     *
     * @param catalog the tables statements read
     * @param tables  the names of the catalog's tables statements may name
     */
    public SqlPlanner(final Catalog catalog, final Collection<String> tables) {
        this(catalog, tables, PlanCache.configuredCapacity());
    }

    /**
     * @param catalog   the tables statements read
     * @param tables    the names of the catalog's tables statements may name
     * @param planCache how many statements to keep planned, by their text; 0 plans every statement
     */
    public SqlPlanner(final Catalog catalog, final Collection<String> tables, final int planCache) {
        this.catalog = catalog;
        this.frontEnd = new SqlFrontEnd(catalog, tables, this::statsOf);
        this.tables = List.copyOf(new java.util.TreeSet<>(tables));
        this.plans = new PlanCache(planCache);
    }

    /**
     * Plans one statement.
     *
     * @param sql a SELECT (or WITH ... SELECT) statement, with or without a trailing semicolon
     * @return the plan and its estimates; the same plan as before for a text planned before
     * @throws SqlException when the statement is not valid SQL over these tables, or uses what
     *                      Sluice does not support; it names the line, the column and the construct
     */
    public PlannedQuery plan(final String sql) {
        final long start = System.nanoTime();
        final String text = withoutTrailingSemicolon(sql);
        final PlannedQuery kept = plans.get(text);
        if (kept != null) {
            return new PlannedQuery(kept.plan(), kept.columns(), kept.estimates(), System.nanoTime() - start, true);
        }
        final PlannedQuery planned = planAnew(text, start);
        plans.put(text, planned);
        return planned;
    }

    private PlannedQuery planAnew(final String text, final long start) {
        final SqlFrontEnd.Converted converted = frontEnd.convert(text);
        final RelTranslator translator = new RelTranslator(catalog::table, tables, this::statsOf);
        final RelNode rel = converted.rel();
        final List<String> columns = OutputNames.of(converted.validated(), text, rel.getRowType().getFieldNames());
        final List<String> names = distinct(columns, rel.getRowType().getFieldNames());
        final PlanNode root;
        if (rel instanceof Sort sort) {
            final Relation in = translator.translate(sort.getInput());
            Plan plan = in.plan().project(outputs(in, names));
            final List<SortKey> keys = new ArrayList<>();
            for (final RelFieldCollation fc : sort.getCollation().getFieldCollations()) {
                final String c = names.get(fc.getFieldIndex());
                keys.add(new SortKey(c, fc.direction == RelFieldCollation.Direction.DESCENDING,
                        fc.nullDirection == RelFieldCollation.NullDirection.FIRST));
            }
            if (sort.offset != null && !(sort.offset instanceof RexLiteral l && l.getValueAs(Long.class) == 0)) {
                throw SqlException.unsupported("OFFSET is not supported");
            }
            if (!keys.isEmpty()) {
                plan = plan.orderBy(keys.toArray(new SortKey[0]));
            }
            if (sort.fetch != null) {
                plan = plan.limit(((RexLiteral) sort.fetch).getValueAs(Long.class));
            }
            root = plan.node();
        } else {
            final Relation in = translator.translate(rel);
            root = in.plan().project(outputs(in, names)).node();
        }
        return new PlannedQuery(Plan.of(ColumnPruning.apply(root)), columns, translator.estimates(),
                System.nanoTime() - start, false);
    }

    private TableStats statsOf(final BlockTable table) {
        return stats.computeIfAbsent(table.name(), n -> TableStats.of(table));
    }

    private static NamedExpr[] outputs(final Relation in, final List<String> names) {
        final NamedExpr[] items = new NamedExpr[names.size()];
        for (int i = 0; i < items.length; i++) {
            items[i] = new NamedExpr(names.get(i), Expr.col(in.column(i)));
        }
        return items;
    }

    /**
     * The names the plan's result columns carry, which must differ: a result column's name, or where
     * an earlier column has it too (SELECT a.x, b.x), the validator's unique one ({@code x0}).
     */
    private static List<String> distinct(final List<String> columns, final List<String> unique) {
        final Set<String> seen = new HashSet<>();
        final List<String> out = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            final String n = seen.contains(columns.get(i)) ? unique.get(i) : columns.get(i);
            if (!seen.add(n)) {
                throw SqlException.unsupported("two result columns are named '" + n + "': give one an alias (AS ...)");
            }
            out.add(n);
        }
        return out;
    }

    private static String withoutTrailingSemicolon(final String sql) {
        String s = sql.stripTrailing();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).stripTrailing();
        }
        return s;
    }
}
