package io.sluice.perf.mysql;

import io.sluice.engine.plan.Strategy;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A connection's system variables, as {@code SELECT @@name} and {@code SHOW VARIABLES} read them and
 * {@code SET} changes them: the ones MySQL clients and JDBC drivers read when they connect, with the
 * values of a read-only server in UTF-8 whose every statement commits alone, and Sluice's own, which
 * say how the connection's statements run ({@link #settings}).
 */
final class SessionVariables {
    /** The strategy of the connection's statements (sluice sql's --strategy). */
    static final String STRATEGY = "sluice_strategy";
    /** CNs to run on, 0 for every CN alive (--cn). */
    static final String CN = "sluice_cn";
    /** Cores on each CN, 0 for the fewest any offers (--cores). */
    static final String CORES = "sluice_cores";
    /** Each statement's time limit in milliseconds, 0 for none (--timeout). */
    static final String TIMEOUT = "sluice_timeout_ms";

    private final Map<String, String> values = new TreeMap<>();

    SessionVariables(final String version, final long connectionId, final int maxPacket) {
        put("auto_increment_increment", "1");
        put("autocommit", "1");
        put("character_set_client", "utf8mb4");
        put("character_set_connection", "utf8mb4");
        put("character_set_database", "utf8mb4");
        put("character_set_results", "utf8mb4");
        put("character_set_server", "utf8mb4");
        put("character_set_system", "utf8mb3");
        put("collation_connection", "utf8mb4_general_ci");
        put("collation_database", "utf8mb4_general_ci");
        put("collation_server", "utf8mb4_general_ci");
        put("default_storage_engine", "Sluice");
        put("have_ssl", "DISABLED");
        put("init_connect", "");
        put("interactive_timeout", "28800");
        put("license", "");
        put("lower_case_table_names", "0");
        put("max_allowed_packet", Integer.toString(maxPacket));
        put("max_execution_time", "0");
        put("net_buffer_length", "16384");
        put("net_write_timeout", "60");
        put("performance_schema", "0");
        put("protocol_version", "10");
        put("pseudo_thread_id", Long.toString(connectionId));
        put("query_cache_size", "0");
        put("query_cache_type", "OFF");
        put("session_track_schema", "OFF");
        put("sql_auto_is_null", "0");
        put("sql_mode", "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION");
        put("sql_select_limit", "18446744073709551615");
        put("system_time_zone", "UTC");
        put("time_zone", "SYSTEM");
        put("transaction_isolation", "REPEATABLE-READ");
        put("transaction_read_only", "0");
        put("tx_isolation", "REPEATABLE-READ");
        put("tx_read_only", "0");
        put("version", version);
        put("version_comment", "Sluice");
        put("version_compile_machine", System.getProperty("os.arch"));
        put("version_compile_os", System.getProperty("os.name"));
        put("wait_timeout", "28800");
        put("warning_count", "0");
        put("error_count", "0");
        put(STRATEGY, RunSettings.DEFAULTS.strategy());
        put(CN, "0");
        put(CORES, "0");
        put(TIMEOUT, "0");
    }

    /** How the connection's statements run, from its sluice_* variables (checked when they were set). */
    RunSettings settings() {
        return new RunSettings(get(STRATEGY), Integer.parseInt(get(CN)), Integer.parseInt(get(CORES)),
                Long.parseLong(get(TIMEOUT)));
    }

    /**
     * Sets a variable, checking Sluice's own: {@code sluice_strategy} a strategy's name, {@code sluice_cn},
     * {@code sluice_cores} and {@code sluice_timeout_ms} whole numbers, 0 or more.
     *
     * @throws MySqlError ER_WRONG_VALUE_FOR_VAR for a value they do not take
     */
    void set(final String name, final String value) {
        final String key = name.toLowerCase(Locale.ROOT);
        final String v = key.startsWith("sluice_") && value.equalsIgnoreCase("default") ? defaultOf(key) : value;
        switch (key) {
            case STRATEGY -> {
                try {
                    Strategy.parse(v);
                } catch (final IllegalArgumentException e) {
                    throw new MySqlError(ErrorCode.WRONG_VALUE, "Variable '" + key + "' can't be set to the value of '"
                            + v + "': " + e.getMessage());
                }
            }
            case CN, CORES, TIMEOUT -> {
                final long n;
                try {
                    n = Long.parseLong(v);
                } catch (final NumberFormatException e) {
                    throw new MySqlError(ErrorCode.WRONG_VALUE, "Variable '" + key + "' can't be set to the value of '"
                            + v + "': a whole number, 0 or more");
                }
                if (n < 0 || (!key.equals(TIMEOUT) && n > Integer.MAX_VALUE)) {
                    throw new MySqlError(ErrorCode.WRONG_VALUE, "Variable '" + key + "' can't be set to the value of '"
                            + v + "': 0 or more" + (key.equals(TIMEOUT) ? "" : ", at most " + Integer.MAX_VALUE));
                }
            }
            default -> {
                // Another variable: kept as the client set it, read back by SELECT @@name.
            }
        }
        put(key, v);
    }

    private static String defaultOf(final String key) {
        return key.equals(STRATEGY) ? RunSettings.DEFAULTS.strategy() : "0";
    }

    /** A variable's value; null for one this server does not know (a client reads NULL rather than failing). */
    String get(final String name) {
        return values.get(name.toLowerCase(Locale.ROOT));
    }

    void put(final String name, final String value) {
        values.put(name.toLowerCase(Locale.ROOT), value);
    }

    /** Every variable, by name. */
    Map<String, String> all() {
        return values;
    }
}
