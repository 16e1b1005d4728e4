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
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Copies tables of a Sluice store into DuckDB with its appender, mapping types one to one
 * (int64 to BIGINT, int32 to INTEGER, decimal(p,s) to DECIMAL(p,s), date to DATE, string to
 * VARCHAR, nulls kept), so both engines answer over exactly the same rows.
 */
public final class DuckDbLoader {
    private DuckDbLoader() {
    }

    /** An in-memory DuckDB limited to {@code threads} threads. */
    public static Connection openInMemory(final int threads) throws SQLException {
        final Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = connection.createStatement()) {
            s.execute("SET threads TO " + threads);
        }
        return connection;
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
