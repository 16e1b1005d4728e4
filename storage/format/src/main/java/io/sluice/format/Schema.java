package io.sluice.format;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The ordered columns of a table or batch. Text form: {@code name:type,name:type,...}.
 *
 * @param fields the columns in order, 1 to {@link #MAX_COLUMNS} of them with distinct names; copied
 */
public record Schema(List<Field> fields) {
    /** Most columns a block can hold (the layout stores the count in 16 bits). */
    public static final int MAX_COLUMNS = 4096;

    /**
     * Copies the fields and checks them.
     *
     * @param fields the columns in order, 1 to {@link #MAX_COLUMNS} of them with distinct names
     * @throws IllegalArgumentException when there are no fields, too many, or two with the same name
     */
    public Schema {
        fields = List.copyOf(fields);
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("a schema needs at least one column");
        }
        if (fields.size() > MAX_COLUMNS) {
            throw new IllegalArgumentException("a schema has at most " + MAX_COLUMNS + " columns, got " + fields.size());
        }
        final Set<String> seen = new HashSet<>();
        for (final Field f : fields) {
            if (!seen.add(f.name())) {
                throw new IllegalArgumentException("column '" + f.name() + "' appears twice in the schema");
            }
        }
    }

    /**
     * Builds a schema from fields.
     *
     * @param fields the columns in order
     * @return the schema
     * @throws IllegalArgumentException as the constructor does
     */
    public static Schema of(final Field... fields) {
        return new Schema(List.of(fields));
    }

    /**
     * Parses {@code "k:int64,v:decimal(15,2),d:date,s:string"}.
     *
     * @param text comma-separated {@code name:type} entries, types as {@link ColumnType#parse} reads them
     * @return the schema
     * @throws IllegalArgumentException when an entry has no type, a type or name is not valid, or a name
     *                                  appears twice
     */
    public static Schema parse(final String text) {
        final List<Field> fields = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            final char c = i < text.length() ? text.charAt(i) : ',';
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                final String part = text.substring(start, i).trim();
                final int colon = part.indexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException("schema entry '" + part
                            + "' has no type: write name:type, e.g. k:int64");
                }
                fields.add(new Field(part.substring(0, colon).trim(), ColumnType.parse(part.substring(colon + 1))));
                start = i + 1;
            }
        }
        return new Schema(fields);
    }

    /**
     * Number of columns.
     *
     * @return 1 to {@link #MAX_COLUMNS}
     */
    public int size() {
        return fields.size();
    }

    /**
     * The field at a position.
     *
     * @param index the column's position, 0 to {@link #size()} - 1
     * @return its name and type
     */
    public Field field(final int index) {
        return fields.get(index);
    }

    /**
     * The type of the column at a position.
     *
     * @param index the column's position, 0 to {@link #size()} - 1
     * @return its type
     */
    public ColumnType type(final int index) {
        return fields.get(index).type();
    }

    /**
     * Position of a column, or -1.
     *
     * @param name the column's name, matched exactly
     * @return its position, or -1 when there is no such column
     */
    public int indexOf(final String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Position of a column; the error lists the columns there are.
     *
     * @param name the column's name, matched exactly
     * @return its position
     * @throws IllegalArgumentException when there is no such column
     */
    public int require(final String name) {
        final int index = indexOf(name);
        if (index < 0) {
            throw new IllegalArgumentException("no column '" + name + "'; columns are " + names());
        }
        return index;
    }

    /**
     * Column names in order.
     *
     * @return a new list of the names
     */
    public List<String> names() {
        final List<String> names = new ArrayList<>(fields.size());
        for (final Field f : fields) {
            names.add(f.name());
        }
        return names;
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder();
        for (final Field f : fields) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(f);
        }
        return sb.toString();
    }
}
