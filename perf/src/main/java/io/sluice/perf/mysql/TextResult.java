package io.sluice.perf.mysql;

import java.util.List;

/**
 * A small result the server makes itself (SHOW TABLES, DESCRIBE, SELECT @@version): column names and
 * types, and rows of text cells, null for NULL.
 */
record TextResult(List<String> names, List<MySqlType> types, List<String[]> rows) {
    TextResult {
        if (names.size() != types.size()) {
            throw new IllegalArgumentException(names.size() + " names for " + types.size() + " types");
        }
        names = List.copyOf(names);
        types = List.copyOf(types);
        rows = List.copyOf(rows);
    }

    /** A result whose columns are all text. */
    static TextResult strings(final List<String> names, final List<String[]> rows) {
        return new TextResult(names, names.stream().map(n -> MySqlType.VAR_STRING).toList(), rows);
    }
}
