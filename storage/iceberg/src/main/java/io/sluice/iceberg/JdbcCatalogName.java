package io.sluice.iceberg;

import io.sluice.format.StorageException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The name of the catalog a JDBC catalog database holds. Iceberg's JDBC catalog keys every row by the name the
 * writer gave its catalog, and a reader sees only the rows of its own name, so Sluice reads the one name the
 * database holds rather than asking the user to repeat it.
 */
final class JdbcCatalogName {
    private JdbcCatalogName() {
    }

    /**
     * The catalog name in the database at {@code uri}.
     *
     * @throws StorageException when the database cannot be read, holds no Iceberg catalog, or holds several
     */
    static String of(final String uri) {
        final List<String> names = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(uri); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select catalog_name from iceberg_tables union select catalog_name from"
                     + " iceberg_namespace_properties")) {
            while (r.next()) {
                names.add(r.getString(1));
            }
        } catch (final SQLException e) {
            throw new StorageException("iceberg catalog " + uri + " cannot be read (" + e.getMessage() + "): give the"
                    + " URI of a database an Iceberg JDBC catalog wrote, with its JDBC driver on the class path", e);
        }
        if (names.size() != 1) {
            throw new StorageException("iceberg catalog " + uri + (names.isEmpty() ? " holds no Iceberg catalog:"
                    + " give the database an Iceberg JDBC catalog wrote" : " holds catalogs " + names
                    + ": Sluice reads a database of one catalog; copy its tables into a database of their own"));
        }
        return names.get(0);
    }
}
