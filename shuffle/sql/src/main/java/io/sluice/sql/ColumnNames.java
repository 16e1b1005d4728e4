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
        if (base.isEmpty()) {
            base = "expr";
        }
        String name = base;
        for (int n = 2; used.contains(name); n++) {
            name = base + "_" + n;
        }
        used.add(name);
        return name;
    }
}
