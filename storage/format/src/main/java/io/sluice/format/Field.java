package io.sluice.format;

/**
 * A named, typed column of a {@link Schema}.
 *
 * @param name the column's name: letters, digits and {@code _}, not starting with a digit
 * @param type the column's type
 */
public record Field(String name, ColumnType type) {
    /**
     * Checks the name.
     *
     * @param name the column's name: letters, digits and {@code _}, not starting with a digit
     * @param type the column's type
     * @throws IllegalArgumentException when the name is null, blank or has other characters
     */
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
