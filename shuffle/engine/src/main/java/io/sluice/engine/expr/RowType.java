package io.sluice.engine.expr;

import java.util.ArrayList;
import java.util.List;

/** The named, typed columns of the batches an operator consumes or produces. */
public record RowType(List<String> names, List<DataType> types) {
    public RowType {
        if (names.size() != types.size()) {
            throw new IllegalArgumentException(names.size() + " names for " + types.size() + " types");
        }
        for (int i = 0; i < names.size(); i++) {
            if (names.indexOf(names.get(i)) != i) {
                throw new IllegalArgumentException("column '" + names.get(i) + "' appears twice in " + names
                        + ": rename one with a projection");
            }
        }
        names = List.copyOf(names);
        types = List.copyOf(types);
    }

    /** Number of columns. */
    public int size() {
        return names.size();
    }

    /** The name of a column. */
    public String name(final int index) {
        return names.get(index);
    }

    /** The type of a column. */
    public DataType type(final int index) {
        return types.get(index);
    }

    /** The position of a named column; the error lists the columns there are. */
    public int indexOf(final String name) {
        final int i = names.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no column '" + name + "' among " + names);
        }
        return i;
    }

    /** These columns followed by another row type's. */
    public RowType concat(final RowType other) {
        final List<String> n = new ArrayList<>(names);
        n.addAll(other.names);
        final List<DataType> t = new ArrayList<>(types);
        t.addAll(other.types);
        return new RowType(n, t);
    }
}
