package io.sluice.perf.duckdb;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableManifest;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Copies tables of a Sluice store into DuckDB with its appender, mapping types one to one
 * (int64 to BIGINT, int32 to INTEGER, decimal(p,s) to DECIMAL(p,s), date to DATE, string to
 * VARCHAR, nulls kept), so both engines answer over exactly the same rows.
 */
public final class DuckDbLoader {
    /** The DuckDB table recording which store table each loaded table came from. */
    public static final String LOADED = "sluice_loaded";

    private DuckDbLoader() {
    }

    /** An in-memory DuckDB limited to {@code threads} threads. */
    public static Connection openInMemory(final int threads) throws SQLException {
        return open("jdbc:duckdb:", threads);
    }

    /**
     * A DuckDB database kept in {@code file} (created when missing), limited to {@code threads} threads: its
     * tables stay on disk between processes, so {@link #loadChanged} loads a store once and later runs reuse it.
     */
    public static Connection openFile(final Path file, final int threads) throws SQLException {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new IllegalArgumentException("DuckDB file " + file + ": its directory " + parent
                    + " does not exist; create it first (mkdir -p " + parent + ")");
        }
        return open("jdbc:duckdb:" + file.toAbsolutePath(), threads);
    }

    private static Connection open(final String url, final int threads) throws SQLException {
        final Connection connection = DriverManager.getConnection(url);
        try (Statement s = connection.createStatement()) {
            s.execute("SET threads TO " + threads);
        } catch (final SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /**
     * Loads the named tables of a store into DuckDB, except those DuckDB already holds from the same table
     * version: a table's name, version, rows, bytes and manifest time are recorded in {@value #LOADED} as it
     * is loaded, and a table whose record matches is kept. Returns the tables it loaded.
     */
    public static List<String> loadChanged(final Store store, final List<String> tables, final Connection connection)
            throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + LOADED + " (name VARCHAR PRIMARY KEY, source VARCHAR NOT NULL)");
        }
        final List<String> loaded = new ArrayList<>();
        for (final String name : tables) {
            try (Table table = store.table(name)) {
                final String source = source(table);
                if (source.equals(loadedSource(connection, name))) {
                    continue;
                }
                // The record goes first and comes back last: a load stopped halfway is loaded again next time.
                try (PreparedStatement forget = connection.prepareStatement("DELETE FROM " + LOADED + " WHERE name = ?")) {
                    forget.setString(1, name);
                    forget.executeUpdate();
                }
                load(table, connection);
                try (PreparedStatement record = connection.prepareStatement(
                        "INSERT OR REPLACE INTO " + LOADED + " VALUES (?, ?)")) {
                    record.setString(1, name);
                    record.setString(2, source);
                    record.executeUpdate();
                }
                loaded.add(name);
            }
        }
        return loaded;
    }

    /** What identifies the rows of one version of a table: its version, rows, bytes and manifest time. */
    private static String source(final Table table) {
        final Path manifest = table.dir().resolve(TableManifest.FILE);
        long modified;
        try {
            modified = Files.getLastModifiedTime(manifest).toMillis();
        } catch (final IOException e) {
            modified = -1;
        }
        return table.dir().toAbsolutePath() + " v" + table.version() + " rows " + table.rowCount() + " bytes "
                + table.bytes() + " manifest " + modified;
    }

    private static String loadedSource(final Connection connection, final String name) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT source FROM " + LOADED + " WHERE name = ?")) {
            query.setString(1, name);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** The DuckDB column type for a Sluice type. */
    public static String sqlType(final ColumnType type) {
        return switch (type.kind()) {
            case INT64 -> "BIGINT";
            case INT32 -> "INTEGER";
            case DECIMAL, DECIMAL128 -> "DECIMAL(" + type.precision() + "," + type.scale() + ")";
            case DATE -> "DATE";
            case STRING -> "VARCHAR";
        };
    }

    /** Loads the named tables of a store into DuckDB (replacing tables of the same name). */
    public static void load(final Store store, final List<String> tables, final Connection connection)
            throws SQLException {
        for (final String name : tables) {
            try (Table table = store.table(name)) {
                load(table, connection);
            }
        }
    }

    /** Loads one table. */
    public static void load(final Table table, final Connection connection) throws SQLException {
        final Schema schema = table.schema();
        final StringBuilder ddl = new StringBuilder("CREATE OR REPLACE TABLE ").append(table.name()).append(" (");
        for (int c = 0; c < schema.size(); c++) {
            ddl.append(c == 0 ? "" : ", ").append(schema.field(c).name()).append(' ').append(sqlType(schema.type(c)));
        }
        try (Statement s = connection.createStatement()) {
            s.execute(ddl.append(')').toString());
        }
        final DuckDBConnection duck = connection.unwrap(DuckDBConnection.class);
        try (DuckDBAppender appender = duck.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table.name())) {
            for (int b = 0; b < table.blockCount(); b++) {
                final Block block = table.readBlock(b);
                for (int r = 0; r < block.rowCount(); r++) {
                    appender.beginRow();
                    for (int c = 0; c < schema.size(); c++) {
                        append(appender, schema.type(c), block.column(c), r);
                    }
                    appender.endRow();
                }
            }
        }
    }

    private static void append(final DuckDBAppender appender, final ColumnType type, final ColumnVector column,
                               final int row) throws SQLException {
        if (column.isNull(row)) {
            appender.appendNull();
            return;
        }
        switch (type.kind()) {
            case INT64 -> appender.append(((LongVector) column).get(row));
            case INT32 -> appender.append(((IntVector) column).get(row));
            case DECIMAL -> appender.append(BigDecimal.valueOf(((LongVector) column).get(row), type.scale()));
            case DECIMAL128 -> appender.append(((Decimal128Vector) column).get(row));
            case DATE -> appender.append(LocalDate.ofEpochDay(((IntVector) column).get(row)));
            case STRING -> appender.append(((StringVector) column).getString(row));
        }
    }
}
