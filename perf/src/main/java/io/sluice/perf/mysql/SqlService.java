package io.sluice.perf.mysql;

import io.sluice.format.Schema;
import java.util.List;

/**
 * What the MySQL server asks of the rest of Sluice: the tables of its one database, {@code sluice}, and a
 * {@link Statements} per client connection that plans and runs its SQL on the cluster.
 */
public interface SqlService extends AutoCloseable {
    /** The name of the one database. */
    String DATABASE = "sluice";

    /** The tables, by name. */
    List<String> tables();

    /** A table's columns; null when there is no such table. */
    Schema columns(String table);

    /** Opens what runs one client connection's statements; {@code client} names it in the cluster's logs. */
    Statements open(String client);

    /** Releases what the service holds (the server calls it when it stops). */
    @Override
    default void close() {
    }

    /** One connection's statements, run one at a time. */
    interface Statements extends AutoCloseable {
        /**
         * Plans and runs a statement with the connection's settings: its rows, with its columns named as SQL names
         * them.
         *
         * @throws io.sluice.sql.SqlException when it is not SQL Sluice runs over these tables
         * @throws RuntimeException when it failed on the cluster, was refused or was cancelled
         */
        StatementResult execute(String sql, RunSettings settings);

        /** Stops the statement running now, from another thread, on every CN; its {@link #execute} fails. */
        void cancel(String reason);

        @Override
        void close();
    }
}
