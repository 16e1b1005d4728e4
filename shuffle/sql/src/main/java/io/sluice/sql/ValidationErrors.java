package io.sluice.sql;

import io.sluice.format.spi.Catalog;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Calcite's validation messages in Sluice's words: an unknown table or column says which, with a
 * "did you mean" from the store's names ({@link Spelling}) and, for a table, the tables there are; an
 * ambiguous column, an expression neither grouped nor aggregated and a type mismatch say what to
 * write instead. A message it does not know passes as Calcite wrote it.
 */
final class ValidationErrors {
    private static final Pattern TABLE = Pattern.compile(
            "(?:Object|Table) '([^']*)' not found(?: within '([^']*)')?(?:; did you mean '[^']*'\\?)?");
    private static final Pattern COLUMN_ANYWHERE = Pattern.compile(
            "Column '([^']*)' not found in any table(?:; did you mean '[^']*'\\?)?");
    private static final Pattern COLUMN_IN_TABLE = Pattern.compile(
            "Column '([^']*)' not found in table '([^']*)'(?:; did you mean '[^']*'\\?)?");
    private static final Pattern AMBIGUOUS = Pattern.compile("Column '([^']*)' is ambiguous");
    private static final Pattern NOT_GROUPED = Pattern.compile("Expression '(.*)' is not being grouped");
    private static final Pattern CANNOT_APPLY = Pattern.compile(
            "Cannot apply '([^']*)' to arguments of type '(.*?)'\\..*", Pattern.DOTALL);

    private final Catalog catalog;
    private final Collection<String> tables;

    /** @param tables the names of the catalog's tables statements may name */
    ValidationErrors(final Catalog catalog, final Collection<String> tables) {
        this.catalog = catalog;
        this.tables = tables;
    }

    /**
     * Calcite's message about {@code statement} in Sluice's words.
     *
     * @param message the first line of the validator's message
     */
    String explain(final String message, final SqlNode statement) {
        Matcher m = TABLE.matcher(message);
        if (m.matches()) {
            final String name = m.group(1);
            final String suggestion = Spelling.closest(name, tables);
            return "table " + name + " does not exist in the store" + didYouMean(suggestion) + "; its tables are "
                    + (tables.isEmpty() ? "none (make one with sluice gen or sluice import)" : String.join(", ",
                    new java.util.TreeSet<>(tables)));
        }
        m = COLUMN_ANYWHERE.matcher(message);
        if (m.matches()) {
            final Set<String> read = tablesNamedIn(statement, new HashMap<>());
            return "column " + m.group(1) + " does not exist in " + describe(read)
                    + didYouMean(Spelling.closest(m.group(1), columnsOf(read)));
        }
        m = COLUMN_IN_TABLE.matcher(message);
        if (m.matches()) {
            final String table = m.group(2);
            final Map<String, String> aliases = new HashMap<>();
            final Set<String> named = tablesNamedIn(statement, aliases);
            final String aliased = aliases.get(table.toLowerCase(Locale.ROOT));
            final String holder = tables.contains(table) ? "table " + table
                    : aliased != null ? "table " + aliased + " (as " + table + ")" : table;
            final Set<String> read = tables.contains(table) ? Set.of(table) : aliased != null ? Set.of(aliased) : named;
            return holder + " has no column " + m.group(1) + didYouMean(Spelling.closest(m.group(1), columnsOf(read)));
        }
        m = AMBIGUOUS.matcher(message);
        if (m.matches()) {
            return "column " + m.group(1) + " is in more than one table of the query: name its table, e.g. t."
                    + m.group(1) + " for the table or alias t";
        }
        m = NOT_GROUPED.matcher(message);
        if (m.matches()) {
            return m.group(1) + " is neither in GROUP BY nor inside an aggregate: add it to GROUP BY, or aggregate"
                    + " it (e.g. min(" + m.group(1) + "))";
        }
        m = CANNOT_APPLY.matcher(message);
        if (m.matches()) {
            return "the operator " + m.group(1) + " cannot take " + m.group(2).replace("<", "").replace(">", "")
                    + ": compare and combine values of one type (CAST one of them, e.g. CAST(x AS DECIMAL(15,2)))";
        }
        return message;
    }

    private static String didYouMean(final String suggestion) {
        return suggestion == null ? "" : " (did you mean " + suggestion + "?)";
    }

    private static String describe(final Set<String> read) {
        return read.isEmpty() ? "the tables of the query"
                : read.size() == 1 ? "table " + read.iterator().next() : "tables " + String.join(", ", read);
    }

    /** The store's tables a statement names, in the order it names them; {@code aliases} gets alias to table. */
    private Set<String> tablesNamedIn(final SqlNode statement, final Map<String, String> aliases) {
        final Set<String> named = new LinkedHashSet<>();
        if (statement != null) {
            statement.accept(new SqlBasicVisitor<Void>() {
                @Override
                public Void visit(final SqlCall call) {
                    // Validation may have qualified the table's name in place (store.orders): its last part counts.
                    if (call.getKind() == SqlKind.AS && call.operandCount() >= 2
                            && call.operand(0) instanceof SqlIdentifier table
                            && call.operand(1) instanceof SqlIdentifier alias && alias.isSimple()) {
                        final String name = table.names.get(table.names.size() - 1).toLowerCase(Locale.ROOT);
                        if (tables.contains(name)) {
                            aliases.put(alias.getSimple().toLowerCase(Locale.ROOT), name);
                        }
                    }
                    return super.visit(call);
                }

                @Override
                public Void visit(final SqlIdentifier id) {
                    for (final String part : id.names) {
                        final String name = part.toLowerCase(Locale.ROOT);
                        if (tables.contains(name)) {
                            named.add(name);
                        }
                    }
                    return null;
                }
            });
        }
        return named;
    }

    /** The columns of those tables, or of every table of the store when none is named. */
    private List<String> columnsOf(final Set<String> read) {
        final List<String> columns = new ArrayList<>();
        for (final String table : read.isEmpty() ? tables : read) {
            columns.addAll(catalog.table(table).schema().names());
        }
        return columns;
    }
}
