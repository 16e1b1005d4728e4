package io.sluice.perf.mysql;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.io.IOException;
import java.time.LocalDate;
import java.util.List;

/**
 * Writes a result set: the column count, a column definition per column, an EOF, a row packet per row,
 * and a closing EOF. Rows are in the text protocol (COM_QUERY: each cell a length-encoded string, 0xFB
 * for NULL) or the binary one (COM_STMT_EXECUTE: a null bitmap, then each cell in its type's binary
 * form). They are encoded batch by batch straight from the column vectors into one reused packet
 * buffer and go out as the socket takes them, so a large result is never held twice.
 */
final class ResultSetWriter {
    /** SERVER_STATUS_AUTOCOMMIT: every statement stands alone. */
    static final int STATUS_AUTOCOMMIT = 0x0002;

    private final PacketChannel channel;
    private final boolean binary;
    private final PacketWriter packet = new PacketWriter();

    /** @param binary whether rows are in the binary protocol (prepared statements) rather than text */
    ResultSetWriter(final PacketChannel channel, final boolean binary) {
        this.channel = channel;
        this.binary = binary;
    }

    /** Writes a statement's result, each column defined with its name as SQL gives it. */
    void write(final StatementResult statement) throws IOException {
        final QueryResult result = statement.rows();
        final RowType type = result.rowType();
        final int columns = type.size();
        channel.write(packet.reset().lenenc(columns));
        for (int c = 0; c < columns; c++) {
            final DataType t = type.type(c);
            final MySqlType m = MySqlType.of(t);
            columnDefinition(statement.columns().get(c), m, MySqlType.length(t), MySqlType.decimals(t));
        }
        eof();
        for (final Batch batch : result.batches()) {
            final int rows = batch.rowCount();
            for (int r = 0; r < rows; r++) {
                packet.reset();
                if (binary) {
                    final int bitmap = startBinaryRow(columns);
                    for (int c = 0; c < columns; c++) {
                        binaryCell(batch.column(c), type.type(c), r, bitmap, c);
                    }
                } else {
                    for (int c = 0; c < columns; c++) {
                        cell(batch.column(c), type.type(c), r);
                    }
                }
                channel.write(packet);
            }
        }
        eof();
        channel.flush();
    }

    /** Writes a result the server made itself. */
    void write(final TextResult result) throws IOException {
        final List<String> names = result.names();
        channel.write(packet.reset().lenenc(names.size()));
        for (int c = 0; c < names.size(); c++) {
            final MySqlType m = result.types().get(c);
            columnDefinition(names.get(c), m, m == MySqlType.VAR_STRING ? 1024 : 21, 0);
        }
        eof();
        for (final String[] row : result.rows()) {
            packet.reset();
            final int bitmap = binary ? startBinaryRow(row.length) : 0;
            for (int c = 0; c < row.length; c++) {
                final String cell = row[c];
                if (cell == null) {
                    if (binary) {
                        packet.orByte(bitmap + (c + 2) / 8, 1 << ((c + 2) % 8));
                    } else {
                        packet.nullCell();
                    }
                } else if (binary && result.types().get(c) == MySqlType.LONGLONG) {
                    packet.int8(Long.parseLong(cell));
                } else {
                    packet.lenencString(cell);
                }
            }
            channel.write(packet);
        }
        eof();
        channel.flush();
    }

    /** The column definitions of a table's columns and an EOF (COM_FIELD_LIST's answer). */
    void fieldList(final String table, final List<String> names, final List<DataType> types) throws IOException {
        for (int c = 0; c < names.size(); c++) {
            final DataType t = types.get(c);
            final MySqlType m = MySqlType.of(t);
            packet.reset().lenencString("def").lenencString("sluice").lenencString(table).lenencString(table)
                    .lenencString(names.get(c)).lenencString(names.get(c)).lenenc(0x0C).int2(m.charset())
                    .int4(MySqlType.length(t)).int1(m.code()).int2(m.flags()).int1(MySqlType.decimals(t)).int2(0)
                    // COM_FIELD_LIST's definitions end with the column's default value: none.
                    .lenenc(0);
            channel.write(packet);
        }
        eof();
        channel.flush();
    }

    private void columnDefinition(final String name, final MySqlType type, final long length, final int decimals)
            throws IOException {
        packet.reset().lenencString("def").lenencString("sluice").lenencString("").lenencString("")
                .lenencString(name).lenencString(name).lenenc(0x0C).int2(type.charset()).int4(length)
                .int1(type.code()).int2(type.flags()).int1(decimals).int2(0);
        channel.write(packet);
    }

    /** A prepared statement's parameter definition: a placeholder of no fixed type. */
    void parameterDefinition() throws IOException {
        columnDefinition("?", MySqlType.VAR_STRING, 0, 0);
    }

    void eof() throws IOException {
        channel.write(packet.reset().int1(0xFE).int2(0).int2(STATUS_AUTOCOMMIT));
    }

    /** Starts a binary row: its header and a null bitmap (offset 2) of zeros; returns where the bitmap starts. */
    private int startBinaryRow(final int columns) {
        packet.int1(0x00);
        final int bitmap = packet.length();
        packet.zeros((columns + 7 + 2) / 8);
        return bitmap;
    }

    private void binaryCell(final ColumnVector v, final DataType t, final int r, final int bitmap, final int c) {
        if (v.isNull(r)) {
            packet.orByte(bitmap + (c + 2) / 8, 1 << ((c + 2) % 8));
            return;
        }
        switch (t.kind()) {
            case INT64, DOUBLE -> packet.int8(((LongVector) v).get(r));
            case INT32 -> packet.int4(((IntVector) v).get(r));
            case BOOLEAN -> packet.int1(((IntVector) v).get(r) != 0 ? 1 : 0);
            case DECIMAL -> packet.lenencDecimal(((LongVector) v).get(r), t.scale());
            case DECIMAL128 -> packet.lenencString(((Decimal128Vector) v).get(r).toPlainString());
            case DATE -> {
                final LocalDate d = LocalDate.ofEpochDay(((IntVector) v).get(r));
                packet.int1(4).int2(d.getYear()).int1(d.getMonthValue()).int1(d.getDayOfMonth());
            }
            case STRING -> {
                final StringVector s = (StringVector) v;
                packet.lenencBytes(s.bytes(), s.offset(r), s.length(r));
            }
        }
    }

    private void cell(final ColumnVector v, final DataType t, final int r) {
        if (v.isNull(r)) {
            packet.nullCell();
            return;
        }
        switch (t.kind()) {
            case INT64 -> packet.lenencLong(((LongVector) v).get(r));
            case INT32 -> packet.lenencLong(((IntVector) v).get(r));
            case BOOLEAN -> packet.lenencLong(((IntVector) v).get(r) != 0 ? 1 : 0);
            case DECIMAL -> packet.lenencDecimal(((LongVector) v).get(r), t.scale());
            case DECIMAL128 -> packet.lenencString(((Decimal128Vector) v).get(r).toPlainString());
            case DOUBLE -> packet.lenencString(Double.toString(Double.longBitsToDouble(((LongVector) v).get(r))));
            case DATE -> packet.lenencDate(((IntVector) v).get(r));
            case STRING -> {
                final StringVector s = (StringVector) v;
                packet.lenencBytes(s.bytes(), s.offset(r), s.length(r));
            }
        }
    }
}
