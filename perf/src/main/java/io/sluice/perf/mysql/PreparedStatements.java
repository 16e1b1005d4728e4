package io.sluice.perf.mysql;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

/**
 * A connection's server-side prepared statements (COM_STMT_PREPARE, COM_STMT_EXECUTE, COM_STMT_CLOSE),
 * for drivers that prepare on the server. A statement is kept as its text with {@code ?} placeholders;
 * each execution binds the parameters, sent in the binary protocol, as SQL literals in their places
 * and runs the text like COM_QUERY (the planner keeps the plan of a text it planned before).
 */
final class PreparedStatements {
    /** A statement id that means "the statement prepared last" (sent by pipelining drivers). */
    private static final long LAST = 0xFFFFFFFFL;

    /** One prepared statement: its text, its placeholders and the parameter types last bound. */
    static final class Prepared {
        final long id;
        final String sql;
        final int parameters;
        int[] types;
        /** Whether a parameter came as long data, which this server does not take. */
        boolean longData;

        Prepared(final long id, final String sql, final int parameters) {
            this.id = id;
            this.sql = sql;
            this.parameters = parameters;
        }
    }

    private final Map<Long, Prepared> statements = new HashMap<>();
    private final int maxStatements;
    private long nextId = 1;
    private Prepared last;

    PreparedStatements(final int maxStatements) {
        this.maxStatements = maxStatements;
    }

    /** Prepares a statement; a connection holding {@code maxStatements} already is refused (MySQL's 16382 limit). */
    Prepared prepare(final String sql) {
        if (statements.size() >= maxStatements) {
            throw new MySqlError(ErrorCode.TOO_MANY_STATEMENTS, "Can't create more than max_prepared_stmt_count"
                    + " statements (current value: " + maxStatements + "): close the ones no longer used");
        }
        final Prepared p = new Prepared(nextId++, sql, placeholders(sql));
        statements.put(p.id, p);
        last = p;
        return p;
    }

    /** The statement of that id. */
    Prepared get(final long id) {
        final Prepared p = id == LAST ? last : statements.get(id);
        if (p == null) {
            throw new MySqlError(ErrorCode.UNKNOWN_STATEMENT, "Unknown prepared statement handler (" + id
                    + ") given to mysqld_stmt_execute");
        }
        return p;
    }

    void close(final long id) {
        final Prepared p = statements.remove(id);
        if (p != null && p == last) {
            last = null;
        }
    }

    /** The number of {@code ?} placeholders outside quotes and comments. */
    static int placeholders(final String sql) {
        int count = 0;
        final Scanner s = new Scanner(sql);
        while (s.next()) {
            count++;
        }
        return count;
    }

    /**
     * Reads the parameters of a COM_STMT_EXECUTE (after the statement id, flags and iteration count) and
     * returns the statement's text with each placeholder replaced by its value as a SQL literal.
     */
    static String bind(final Prepared p, final PacketReader in) {
        if (p.parameters == 0) {
            return p.sql;
        }
        final byte[] nulls = in.bytes((p.parameters + 7) / 8, "parameter null bitmap");
        if (in.int1("new-params-bound flag") == 1) {
            final int[] types = new int[p.parameters];
            for (int i = 0; i < types.length; i++) {
                types[i] = in.int2("parameter " + (i + 1) + " type");
            }
            p.types = types;
        }
        if (p.types == null) {
            throw new ProtocolException("COM_STMT_EXECUTE of statement " + p.id + " sends no parameter types and none"
                    + " were bound before");
        }
        final String[] literals = new String[p.parameters];
        for (int i = 0; i < literals.length; i++) {
            literals[i] = (nulls[i / 8] & (1 << (i % 8))) != 0 ? "NULL" : literal(p.types[i], in, i + 1);
        }
        final StringBuilder sql = new StringBuilder(p.sql.length() + 16 * literals.length);
        final Scanner s = new Scanner(p.sql);
        int copied = 0;
        int i = 0;
        while (s.next()) {
            sql.append(p.sql, copied, s.at).append(literals[i++]);
            copied = s.at + 1;
        }
        return sql.append(p.sql, copied, p.sql.length()).toString();
    }

    private static String literal(final int type, final PacketReader in, final int index) {
        final boolean unsigned = (type & 0x8000) != 0;
        final String field = "parameter " + index;
        return switch (type & 0xFF) {
            case 0x06 -> "NULL";
            case 0x01 -> Long.toString(unsigned ? in.int1(field) : (byte) in.int1(field));
            case 0x02, 0x0D -> Long.toString(unsigned ? in.int2(field) : (short) in.int2(field));
            case 0x03, 0x09 -> Long.toString(unsigned ? in.int4(field) : (int) in.int4(field));
            case 0x08 -> unsigned ? Long.toUnsignedString(in.int8(field)) : Long.toString(in.int8(field));
            case 0x04 -> number(Float.intBitsToFloat((int) in.int4(field)));
            case 0x05 -> number(Double.longBitsToDouble(in.int8(field)));
            case 0x0A, 0x07, 0x0C -> date(in, field);
            case 0xF6, 0x00 -> decimal(new String(in.lenencBytes(field), StandardCharsets.UTF_8), field);
            default -> quote(new String(in.lenencBytes(field), StandardCharsets.UTF_8));
        };
    }

    private static String number(final double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new MySqlError(ErrorCode.UNKNOWN, "a parameter of " + v + " has no SQL literal");
        }
        return Double.toString(v);
    }

    private static String decimal(final String text, final String field) {
        try {
            return new BigDecimal(text.strip()).toPlainString();
        } catch (final NumberFormatException e) {
            throw new MySqlError(ErrorCode.UNKNOWN, field + " is sent as a decimal but reads '" + text + "'");
        }
    }

    /** DATE, DATETIME or TIMESTAMP parameters as a DATE literal; a time of day other than midnight is refused. */
    private static String date(final PacketReader in, final String field) {
        final int length = in.int1(field + " length");
        if (length == 0) {
            throw new MySqlError(ErrorCode.UNKNOWN, field + " is the zero date 0000-00-00, which no DATE holds");
        }
        final PacketReader value = new PacketReader(in.bytes(length, field));
        final LocalDate date = LocalDate.of(value.int2(field + " year"), value.int1(field + " month"),
                value.int1(field + " day"));
        while (value.remaining() > 0) {
            if (value.int1(field + " time") != 0) {
                throw new MySqlError(ErrorCode.NOT_SUPPORTED, field + " has a time of day; Sluice has dates only");
            }
        }
        return "DATE '" + date + "'";
    }

    private static String quote(final String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** Finds the {@code ?} placeholders of a statement, skipping quoted text and comments. */
    private static final class Scanner {
        private final String sql;
        private int position;
        int at = -1;

        Scanner(final String sql) {
            this.sql = sql;
        }

        boolean next() {
            while (position < sql.length()) {
                final char c = sql.charAt(position);
                if (c == '\'' || c == '"' || c == '`') {
                    final int end = sql.indexOf(c, position + 1);
                    position = end < 0 ? sql.length() : end + 1;
                } else if (c == '-' && sql.startsWith("--", position) || c == '#') {
                    final int end = sql.indexOf('\n', position);
                    position = end < 0 ? sql.length() : end + 1;
                } else if (c == '/' && sql.startsWith("/*", position)) {
                    final int end = sql.indexOf("*/", position + 2);
                    position = end < 0 ? sql.length() : end + 2;
                } else if (c == '?') {
                    at = position++;
                    return true;
                } else {
                    position++;
                }
            }
            return false;
        }
    }
}
