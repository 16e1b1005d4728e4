package io.sluice.perf.mysql;

import io.sluice.format.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements the server answers itself instead of the cluster: those MySQL clients, JDBC drivers and
 * BI tools send to learn about the server and set up their session. {@code USE}, {@code SET ...},
 * {@code SHOW DATABASES/TABLES/COLUMNS/VARIABLES/WARNINGS}, {@code DESCRIBE t}, {@code KILL [QUERY] n},
 * transaction statements (every statement commits alone), and a SELECT without FROM of system variables
 * and session functions ({@code SELECT @@version_comment LIMIT 1}, {@code SELECT DATABASE(), USER()}).
 * Every other statement is SQL for the cluster.
 */
final class SessionStatements {
    /** What the server answers to a session statement. */
    sealed interface Reply permits Ok, Rows, Use, Kill {
    }

    /** An OK packet. */
    record Ok() implements Reply {
    }

    /** A result set. */
    record Rows(TextResult result) implements Reply {
    }

    /** Switch to a database (checked by the connection). */
    record Use(String database) implements Reply {
    }

    /** Stop connection {@code id}'s statement, and with {@code connection} the connection too. */
    record Kill(long id, boolean connection) implements Reply {
    }

    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.DOTALL;
    private static final Pattern LEADING_COMMENT = Pattern.compile("^\\s*(/\\*.*?\\*/|--[^\\n]*\\n|#[^\\n]*\\n)", FLAGS);
    private static final Pattern USE = Pattern.compile("^use\\s+`?([^`\\s;]+)`?$", FLAGS);
    private static final Pattern SET = Pattern.compile("^set\\s+(.*)$", FLAGS);
    private static final Pattern SET_NAMES = Pattern.compile("^(?:names|character\\s+set|charset)\\s+'?([\\w]+)'?.*$",
            FLAGS);
    private static final Pattern ASSIGNMENT = Pattern.compile(
            "^(?:(?:global|session|local|persist)\\s+)?(@@(?:global\\.|session\\.|local\\.)?|@)?`?([\\w.]+)`?\\s*(?:=|:=)\\s*(.*)$",
            FLAGS);
    private static final Pattern SHOW_DATABASES = Pattern.compile("^show\\s+(?:databases|schemas)(?:\\s+like\\s+'([^']*)')?$",
            FLAGS);
    private static final Pattern SHOW_TABLES = Pattern.compile(
            "^show\\s+(full\\s+)?tables(?:\\s+(?:from|in)\\s+`?(\\w+)`?)?(?:\\s+like\\s+'([^']*)')?$", FLAGS);
    private static final Pattern SHOW_COLUMNS = Pattern.compile(
            "^(?:show\\s+(full\\s+)?(?:columns|fields)\\s+(?:from|in)|describe|desc|explain)\\s+(?:`?(\\w+)`?\\.)?`?(\\w+)`?"
                    + "(?:\\s+(?:from|in)\\s+`?(\\w+)`?)?(?:\\s+like\\s+'([^']*)')?$", FLAGS);
    private static final Pattern SHOW_VARIABLES = Pattern.compile(
            "^show\\s+(?:(?:global|session|local)\\s+)?variables(?:\\s+(?:like\\s+'([^']*)'|where\\s+.*))?$", FLAGS);
    private static final Pattern SHOW_EMPTY = Pattern.compile(
            "^show\\s+(?:warnings|errors|(?:global\\s+|session\\s+)?status|engines|plugins|processlist|full\\s+processlist"
                    + "|collation|character\\s+set|triggers|events|procedure\\s+status|function\\s+status)\\b.*$", FLAGS);
    private static final Pattern TRANSACTION = Pattern.compile(
            "^(?:begin|start\\s+transaction|commit|rollback)(?:\\s+work)?(?:\\s+.*)?$", FLAGS);
    private static final Pattern KILL = Pattern.compile("^kill\\s+(query\\s+|connection\\s+)?(\\d+)$", FLAGS);
    private static final Pattern SELECT = Pattern.compile("^select\\s+(.*?)(?:\\s+limit\\s+\\d+)?$", FLAGS);
    private static final Pattern ALIAS = Pattern.compile("^(.+?)\\s+(?:as\\s+)?([`'\"]?)([\\w$@.]+)\\2$", FLAGS);
    private static final Pattern VARIABLE = Pattern.compile("^@@(?:(?:session|global|local)\\.)?(\\w+)$", FLAGS);
    private static final Pattern FUNCTION = Pattern.compile(
            "^(database|schema|user|current_user|session_user|system_user|version|connection_id|last_insert_id)"
                    + "\\s*\\(\\s*\\)$|^current_user$", FLAGS);
    private static final Pattern INTEGER = Pattern.compile("^-?\\d{1,18}$");
    private static final Pattern STRING = Pattern.compile("^'([^'\\\\]*)'$");

    private final SqlService service;
    private final SessionVariables variables;

    /** How this connection's statements run now. */
    RunSettings settings() {
        return variables.settings();
    }
    private final String user;
    private final long connectionId;

    SessionStatements(final SqlService service, final SessionVariables variables, final String user,
                      final long connectionId) {
        this.service = service;
        this.variables = variables;
        this.user = user;
        this.connectionId = connectionId;
    }

    /** The statement without leading comments, surrounding white space and trailing semicolons. */
    static String strip(final String sql) {
        String s = sql;
        while (true) {
            final Matcher m = LEADING_COMMENT.matcher(s);
            if (!m.find()) {
                break;
            }
            s = s.substring(m.end());
        }
        s = s.strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).stripTrailing();
        }
        return s;
    }

    /**
     * The server's own answer to a statement, or null when it is SQL for the cluster.
     *
     * @param sql      the statement, {@link #strip stripped}
     * @param database the connection's database, or null
     * @throws MySqlError when it is a session statement that fails (an unknown table, database or variable)
     */
    Reply answer(final String sql, final String database) {
        Matcher m;
        if ((m = USE.matcher(sql)).matches()) {
            return new Use(m.group(1));
        }
        if ((m = SET.matcher(sql)).matches()) {
            set(m.group(1));
            return new Ok();
        }
        if (TRANSACTION.matcher(sql).matches()) {
            return new Ok();
        }
        if ((m = KILL.matcher(sql)).matches()) {
            return new Kill(Long.parseLong(m.group(2)), m.group(1) == null || !m.group(1).toLowerCase(Locale.ROOT)
                    .startsWith("query"));
        }
        if ((m = SHOW_DATABASES.matcher(sql)).matches()) {
            final List<String[]> rows = new ArrayList<>();
            if (m.group(1) == null || like(SqlService.DATABASE, m.group(1))) {
                rows.add(new String[] {SqlService.DATABASE});
            }
            return new Rows(TextResult.strings(List.of("Database"), rows));
        }
        if ((m = SHOW_TABLES.matcher(sql)).matches()) {
            return new Rows(tables(m.group(1) != null, m.group(2), m.group(3)));
        }
        if ((m = SHOW_COLUMNS.matcher(sql)).matches()) {
            return new Rows(columns(m.group(3), m.group(2) != null ? m.group(2) : m.group(4), m.group(1) != null,
                    m.group(5)));
        }
        if ((m = SHOW_VARIABLES.matcher(sql)).matches()) {
            final List<String[]> rows = new ArrayList<>();
            for (final Map.Entry<String, String> e : variables.all().entrySet()) {
                if (m.group(1) == null || like(e.getKey(), m.group(1))) {
                    rows.add(new String[] {e.getKey(), e.getValue()});
                }
            }
            return new Rows(TextResult.strings(List.of("Variable_name", "Value"), rows));
        }
        if (SHOW_EMPTY.matcher(sql).matches()) {
            return new Rows(TextResult.strings(List.of("Level", "Code", "Message"), List.of()));
        }
        if ((m = SELECT.matcher(sql)).matches()) {
            return select(m.group(1), database);
        }
        return null;
    }

    private void set(final String assignments) {
        for (final String item : splitTopLevel(assignments)) {
            final Matcher names = SET_NAMES.matcher(item);
            if (names.matches()) {
                final String charset = names.group(1).toLowerCase(Locale.ROOT);
                variables.put("character_set_client", charset);
                variables.put("character_set_connection", charset);
                variables.put("character_set_results", charset);
                continue;
            }
            final Matcher a = ASSIGNMENT.matcher(item);
            if (a.matches() && !"@".equals(a.group(1))) {
                variables.set(a.group(2).replaceFirst("(?i)^(session|global|local)\\.", ""), unquote(a.group(3).strip()));
            }
            // A user variable (@x = ...) or a form this server does not keep (SET TRANSACTION ...): nothing to do.
        }
    }

    private TextResult tables(final boolean full, final String from, final String like) {
        if (from != null && !from.equalsIgnoreCase(SqlService.DATABASE)) {
            throw unknownDatabase(from);
        }
        final List<String[]> rows = new ArrayList<>();
        for (final String t : service.tables()) {
            if (like == null || like(t, like)) {
                rows.add(full ? new String[] {t, "BASE TABLE"} : new String[] {t});
            }
        }
        final String column = "Tables_in_" + SqlService.DATABASE;
        return TextResult.strings(full ? List.of(column, "Table_type") : List.of(column), rows);
    }

    private TextResult columns(final String table, final String database, final boolean full, final String like) {
        if (database != null && !database.equalsIgnoreCase(SqlService.DATABASE)) {
            throw unknownDatabase(database);
        }
        final Schema schema = service.columns(table);
        if (schema == null) {
            throw new MySqlError(ErrorCode.NO_SUCH_TABLE, "Table '" + SqlService.DATABASE + "." + table + "' doesn't"
                    + " exist");
        }
        final List<String[]> rows = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            final String name = schema.names().get(c);
            if (like != null && !like(name, like)) {
                continue;
            }
            final String type = MySqlType.describe(schema.type(c));
            rows.add(full ? new String[] {name, type, type.startsWith("varchar") ? "utf8mb4_general_ci" : null, "YES", "",
                null, "", "select", ""} : new String[] {name, type, "YES", "", null, ""});
        }
        return TextResult.strings(full ? List.of("Field", "Type", "Collation", "Null", "Key", "Default", "Extra",
                "Privileges", "Comment") : List.of("Field", "Type", "Null", "Key", "Default", "Extra"), rows);
    }

    static MySqlError unknownDatabase(final String name) {
        return new MySqlError(ErrorCode.UNKNOWN_DATABASE, "Unknown database '" + name + "': the one database is '"
                + SqlService.DATABASE + "'");
    }

    /** A SELECT of variables, session functions and literals only; null when any item is something else. */
    private Reply select(final String list, final String database) {
        final List<String> names = new ArrayList<>();
        final List<MySqlType> types = new ArrayList<>();
        final List<String> cells = new ArrayList<>();
        for (final String raw : splitTopLevel(list)) {
            String item = raw.strip();
            String alias = null;
            final Matcher a = ALIAS.matcher(item);
            if (a.matches() && !a.group(1).endsWith("(") && known(a.group(1).strip())) {
                item = a.group(1).strip();
                alias = a.group(3);
            }
            if (!known(item)) {
                return null;
            }
            final String value = value(item, database);
            names.add(alias != null ? alias : item);
            types.add(value != null && INTEGER.matcher(value).matches() ? MySqlType.LONGLONG : MySqlType.VAR_STRING);
            cells.add(value);
        }
        final List<String[]> rows = new ArrayList<>();
        rows.add(cells.toArray(new String[0]));
        return new Rows(new TextResult(names, types, rows));
    }

    private static boolean known(final String item) {
        return VARIABLE.matcher(item).matches() || FUNCTION.matcher(item).matches() || INTEGER.matcher(item).matches()
                || STRING.matcher(item).matches();
    }

    private String value(final String item, final String database) {
        Matcher m;
        if ((m = VARIABLE.matcher(item)).matches()) {
            return variables.get(m.group(1));
        }
        if ((m = STRING.matcher(item)).matches()) {
            return m.group(1);
        }
        if (INTEGER.matcher(item).matches()) {
            return Long.toString(Long.parseLong(item));
        }
        final String function = item.replaceAll("\\s*\\(\\s*\\)$", "").toLowerCase(Locale.ROOT);
        return switch (function) {
            case "database", "schema" -> database;
            case "user", "current_user", "session_user", "system_user" -> user + "@%";
            case "version" -> variables.get("version");
            case "connection_id" -> Long.toString(connectionId);
            default -> "0";
        };
    }

    /** Splits at commas outside quotes and parentheses. */
    static List<String> splitTopLevel(final String text) {
        final List<String> parts = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i).strip());
                start = i + 1;
            }
        }
        parts.add(text.substring(start).strip());
        return parts;
    }

    private static String unquote(final String value) {
        if (value.length() >= 2 && (value.charAt(0) == '\'' || value.charAt(0) == '"')
                && value.charAt(value.length() - 1) == value.charAt(0)) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }

    /** SQL LIKE with % and _, ignoring case. */
    static boolean like(final String value, final String pattern) {
        final StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            final char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), FLAGS).matcher(value).matches();
    }
}
