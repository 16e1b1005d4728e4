package io.sluice.format.spi;

/**
 * Finds the tables a plan names. The catalog owns the tables it returns (they stay usable until the
 * catalog is closed, if it can be); callers never close them.
 */
@FunctionalInterface
public interface Catalog {
    /**
     * The table of that name.
     *
     * @param name the table's name, as the plan spells it
     * @return the table, owned by the catalog
     * @throws io.sluice.format.StorageException when there is none, naming it
     */
    BlockTable table(String name);
}
