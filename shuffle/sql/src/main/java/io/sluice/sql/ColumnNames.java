package io.sluice.sql;

import java.util.HashSet;
import java.util.Set;

/**
 * The column names of one statement's plan: every stored column a scan reads and every computed
 * column gets a name no other column of the plan has, so joins never see the same name twice.
 */
final class ColumnNames {
    private final Set<String> used = new HashSet<>();

    /** Records a name a scan outputs. */
    void use(final String name) {
        used.add(name);
    }

    /** A new name like {@code hint} (Calcite's field name, cleaned), unused so far. */
    String fresh(final String hint) {
        String base = hint == null || hint.isBlank() ? "expr" : hint.replace("$", "").replace("EXPR", "expr");
        base = base.replaceAll("[^A-Za-z0-9_]", "_");
        if (base.isEmpty()) {
            base = "expr";
        } else if (!Character.isLetter(base.charAt(0)) && base.charAt(0) != '_') {
            // Calcite names some fields by position ($6): a column name starts with a letter.
            base = "expr_" + base;
        }
        String name = base;
        for (int n = 2; used.contains(name); n++) {
            name = base + "_" + n;
        }
        used.add(name);
        return name;
    }
}
