package io.sluice.sql;

import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.zonemap.TableStats;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RelConversionException;
import org.apache.calcite.tools.ValidationException;

/**
 * Calcite's half of planning a statement: parse, check that Sluice supports what it says
 * ({@link SupportedSql}), validate against the catalog's tables, convert to relational algebra
 * and rewrite it ({@link RulePhases}). Names match whatever their case; an alias keeps its case, as
 * DuckDB names result columns.
 * The parser is Calcite's Babel grammar, where words such as {@code value}, {@code running} or
 * {@code one} that the default grammar reserves are aliases and names, as in DuckDB and Postgres.
 */
final class SqlFrontEnd {
    private final FrameworkConfig config;
    private final ValidationErrors errors;
    private final Function<BlockTable, TableStats> stats;

    /** A front end that reads each table's statistics anew when a rewrite asks for them. */
    SqlFrontEnd(final Catalog catalog, final Collection<String> tables) {
        this(catalog, tables, TableStats::of);
    }

    /**
     * @param catalog the tables statements read
     * @param tables  the names of the catalog's tables statements may name
     * @param stats   a table's statistics, for the rewrites that choose by them
     */
    SqlFrontEnd(final Catalog catalog, final Collection<String> tables, final Function<BlockTable, TableStats> stats) {
        this.stats = stats;
        this.errors = new ValidationErrors(catalog, tables);
        final SchemaPlus root = CalciteSchema.createRootSchema(false, false).plus();
        final SchemaPlus store = root.add("store", new CatalogSchema(catalog, tables));
        final SqlParser.Config parser = SqlParser.config()
                .withQuoting(Quoting.DOUBLE_QUOTE)
                .withUnquotedCasing(Casing.UNCHANGED)
                .withQuotedCasing(Casing.UNCHANGED)
                .withCaseSensitive(false)
                .withParserFactory(SqlBabelParserImpl.FACTORY)
                .withConformance(SqlConformanceEnum.LENIENT);
        this.config = Frameworks.newConfigBuilder()
                .parserConfig(parser)
                .typeSystem(DecimalTypeSystem.INSTANCE)
                .operatorTable(SqlOperatorTables.chain(SqlStdOperatorTable.instance(),
                        SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(SqlLibrary.POSTGRESQL)))
                .convertletTable(WindowConvertlets.INSTANCE)
                .defaultSchema(store)
                .sqlToRelConverterConfig(SqlToRelConverter.config().withExpand(false).withTrimUnusedFields(false)
                        // An IN list of any length stays a condition (TPC-DS Q8 lists 400 zip codes), not a join with constant rows.
                        .withInSubQueryThreshold(Integer.MAX_VALUE))
                .context(Contexts.of(connectionConfig()))
                .build();
    }

    /** Calcite's defaults, but ORDER BY without NULLS FIRST or LAST puts NULLs last in both directions, as DuckDB does. */
    private static CalciteConnectionConfig connectionConfig() {
        final Properties properties = new Properties();
        properties.setProperty(CalciteConnectionProperty.DEFAULT_NULL_COLLATION.camelName(), NullCollation.LAST.name());
        return new CalciteConnectionConfigImpl(properties);
    }

    /** A validated, converted and rewritten statement with the names of its output columns. */
    record Converted(RelNode rel, SqlNode validated, String text) {
    }

    /** Converts one SELECT statement; anything else is a {@link SqlException}. */
    Converted convert(final String sql) {
        // The positions of DATE + n that validation refused so far, each validated again as DATE + n days.
        final List<int[]> days = new ArrayList<>();
        while (true) {
            final Converted converted = convert(sql, days);
            if (converted != null) {
                return converted;
            }
        }
    }

    /** One attempt; null when validation refused a DATE + n not seen before, now added to {@code days}. */
    private Converted convert(final String sql, final List<int[]> days) {
        final Planner planner = Frameworks.getPlanner(config);
        try {
            final SqlNode parsed;
            try {
                parsed = planner.parse(BackquotedNames.asDoubleQuoted(sql));
            } catch (final SqlParseException e) {
                SupportedSql.checkStatementWord(sql);
                final SqlParserPos pos = e.getPos();
                throw new SqlException(SqlException.Kind.SYNTAX, pos == null ? 0 : pos.getLineNum(),
                        pos == null ? 0 : pos.getColumnNum(), ParseErrors.explain(e));
            }
            SupportedSql.check(parsed);
            for (final int[] at : days) {
                DatePlusDays.rewrite(parsed, at[0], at[1]);
            }
            final SqlNode validated;
            try {
                validated = planner.validate(parsed);
            } catch (final ValidationException e) {
                final CalciteContextException c = contextOf(e);
                if (c != null && c.getCause() != null && DatePlusDays.refuses(c.getCause().getMessage())
                        && days.stream().noneMatch(at -> at[0] == c.getPosLine() && at[1] == c.getPosColumn())) {
                    days.add(new int[] {c.getPosLine(), c.getPosColumn()});
                    return null;
                }
                throw validationError(e, parsed);
            }
            final RelRoot root;
            try {
                root = planner.rel(validated);
            } catch (final RelConversionException e) {
                throw SqlException.unsupported("Calcite cannot convert the statement: " + e.getMessage());
            }
            final RelBuilder builder = RelBuilder.create(config);
            final RelNode projected = root.project();
            return new Converted(named(RulePhases.apply(projected, builder, stats), projected, builder), validated, sql);
        } finally {
            planner.close();
        }
    }

    private static CalciteContextException contextOf(final Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CalciteContextException c) {
                return c;
            }
        }
        return null;
    }

    private SqlException validationError(final ValidationException e, final SqlNode statement) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CalciteContextException c) {
                return new SqlException(SqlException.Kind.VALIDATION, c.getPosLine(), c.getPosColumn(), errors.explain(
                        firstLine(c.getCause() == null ? c.getMessage() : c.getCause().getMessage()), statement));
            }
        }
        return new SqlException(SqlException.Kind.VALIDATION, 0, 0, errors.explain(firstLine(e.getMessage()), statement));
    }

    static String firstLine(final String message) {
        if (message == null) {
            return "(no message)";
        }
        final int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /**
     * The rewritten tree under the names the statement gave its columns: rules that rebuild an aggregation name
     * its columns after their inputs, and a renaming projection left above them is removed as trivial.
     */
    private static RelNode named(final RelNode rewritten, final RelNode projected, final RelBuilder builder) {
        final List<String> names = projected.getRowType().getFieldNames();
        if (rewritten.getRowType().getFieldNames().equals(names)) {
            return rewritten;
        }
        return builder.push(rewritten).rename(names).build();
    }
}
