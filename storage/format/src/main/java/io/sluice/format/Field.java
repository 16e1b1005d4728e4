package io.sluice.format;

/** A named, typed column of a {@link Schema}. */
public record Field(String name, ColumnType type) {
    public Field {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a column name must not be empty");
        }
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("column name '" + name
                    + "' is not valid: use letters, digits and '_', starting with a letter or '_'");
        }
    }

    @Override
    public String toString() {
        return name + ":" + type;
    }
}
