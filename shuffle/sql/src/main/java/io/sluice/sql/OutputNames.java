package io.sluice.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The names of a statement's result columns as DuckDB gives them: the alias, the column's own
 * name, or for an unnamed expression the expression as DuckDB prints it ({@link ExpressionNames}).
 */
final class OutputNames {
    private static final Pattern GENERATED = Pattern.compile("EXPR\\$\\d+");

    private OutputNames() {
    }

    static List<String> of(final SqlNode validated, final String sql, final List<String> fieldNames) {
        final SqlSelect select = select(validated);
        final SqlNodeList items = select == null ? null : select.getSelectList();
        final List<String> names = new ArrayList<>();
        for (int i = 0; i < fieldNames.size(); i++) {
            final String name = fieldNames.get(i);
            if (items != null && i < items.size() && items.get(i) instanceof SqlCall as && as.getKind() == SqlKind.AS
                    && madeUnique(as)) {
                // SQL keeps a name that two columns share (SELECT a.x, b.x gives x and x), as DuckDB does.
                final SqlIdentifier column = as.operand(0);
                names.add(column.names.get(column.names.size() - 1));
            } else if (items != null && i < items.size() && items.get(i) instanceof SqlCall as
                    && as.getKind() == SqlKind.AS) {
                // The rewrites may drop the projection that carried the alias (a GROUP BY key of a join's side).
                names.add(((SqlIdentifier) as.operand(1)).getSimple());
            } else if (items != null && i < items.size() && items.get(i) instanceof SqlIdentifier column
                    && !column.isStar() && numbered(name, column.names.get(column.names.size() - 1))) {
                // The validator numbers the second column of a name (x0); SQL keeps the name, as DuckDB does.
                names.add(name.substring(0, column.names.get(column.names.size() - 1).length()));
            } else if (GENERATED.matcher(name).matches() && items != null && i < items.size()) {
                names.add(ExpressionNames.of(textOf(items.get(i), sql)));
            } else {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * Whether an alias is one the validator added to tell apart columns of one name ({@code x0} for
     * the second {@code x}, star-expanded columns too): the column's name and a number, not written
     * after the column in the text, as an alias in the text is.
     */
    private static boolean madeUnique(final SqlCall as) {
        if (!(as.operand(0) instanceof SqlIdentifier column) || column.isStar()
                || !(as.operand(1) instanceof SqlIdentifier alias)) {
            return false;
        }
        final String name = column.names.get(column.names.size() - 1);
        final String given = alias.getSimple();
        if (!given.startsWith(name) || given.length() == name.length()
                || !given.substring(name.length()).chars().allMatch(Character::isDigit)) {
            return false;
        }
        final SqlParserPos at = alias.getParserPosition();
        final SqlParserPos end = column.getParserPosition();
        return at.getLineNum() < end.getEndLineNum()
                || at.getLineNum() == end.getEndLineNum() && at.getColumnNum() <= end.getEndColumnNum();
    }

    /** Whether {@code field} is {@code column}'s name and a number, in any case. */
    private static boolean numbered(final String field, final String column) {
        return field.length() > column.length() && field.regionMatches(true, 0, column, 0, column.length())
                && field.substring(column.length()).chars().allMatch(Character::isDigit);
    }

    private static SqlSelect select(final SqlNode node) {
        if (node instanceof SqlSelect s) {
            return s;
        }
        if (node instanceof SqlOrderBy o) {
            return select(o.query);
        }
        if (node instanceof SqlWith w) {
            return select(w.body);
        }
        if (node instanceof SqlCall set && set.getKind().belongsTo(SqlKind.SET_QUERY)) {
            // A set operation's columns are named as its first input's.
            return select(set.operand(0));
        }
        return null;
    }

    private static String textOf(final SqlNode item, final String sql) {
        if (item instanceof SqlCall call && call.getKind() == SqlKind.COUNT && call.operandCount() == 1
                && call.operand(0) instanceof SqlIdentifier id && id.isStar()) {
            return "count_star()";
        }
        final SqlParserPos pos = item.getParserPosition();
        final String[] lines = sql.split("\n", -1);
        if (pos.getLineNum() < 1 || pos.getEndLineNum() > lines.length) {
            return item.toString();
        }
        final StringBuilder text = new StringBuilder();
        for (int line = pos.getLineNum(); line <= pos.getEndLineNum(); line++) {
            final String l = lines[line - 1];
            final int from = line == pos.getLineNum() ? pos.getColumnNum() - 1 : 0;
            final int to = line == pos.getEndLineNum() ? Math.min(l.length(), pos.getEndColumnNum()) : l.length();
            text.append(line == pos.getLineNum() ? "" : " ").append(l, Math.max(0, from), Math.max(from, to));
        }
        return text.toString().trim().replaceAll("\\s+", " ");
    }
}
