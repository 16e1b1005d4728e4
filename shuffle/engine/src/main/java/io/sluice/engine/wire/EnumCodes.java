package io.sluice.engine.wire;

import java.util.Arrays;

/**
 * The wire codes of an enum's values, one byte each, fixed by an explicit table instead of
 * {@link Enum#ordinal()}: reordering or inserting enum constants leaves the wire format unchanged.
 * The table lists the values in code order (code 0 first); a retired code stays in the table as
 * {@code null} so that no later value reuses it. Construction fails when a value has no code, so a
 * new enum constant cannot be encoded until it is given one.
 *
 * @param <E> the enum
 */
public final class EnumCodes<E extends Enum<E>> {
    private final String name;
    private final E[] byCode;
    private final byte[] codeByOrdinal;

    private EnumCodes(final Class<E> type, final E[] byCode) {
        this.name = type.getSimpleName();
        if (byCode.length > 256) {
            throw new IllegalArgumentException(name + " has " + byCode.length + " codes, one byte holds 256");
        }
        this.byCode = byCode.clone();
        final E[] constants = type.getEnumConstants();
        this.codeByOrdinal = new byte[constants.length];
        final boolean[] seen = new boolean[constants.length];
        for (int code = 0; code < byCode.length; code++) {
            final E value = byCode[code];
            if (value == null) {
                continue;
            }
            if (seen[value.ordinal()]) {
                throw new IllegalArgumentException(name + "." + value + " has two codes in " + Arrays.toString(byCode));
            }
            seen[value.ordinal()] = true;
            codeByOrdinal[value.ordinal()] = (byte) code;
        }
        for (final E constant : constants) {
            if (!seen[constant.ordinal()]) {
                throw new IllegalArgumentException(name + "." + constant + " has no wire code: append it to the"
                        + " code table " + Arrays.toString(byCode));
            }
        }
    }

    /**
     * The codes of an enum's values.
     *
     * @param byCode every value of {@code type} once, in code order; {@code null} for a retired code
     */
    @SafeVarargs
    public static <E extends Enum<E>> EnumCodes<E> of(final Class<E> type, final E... byCode) {
        return new EnumCodes<>(type, byCode);
    }

    /** The code of a value, 0..255. */
    public int code(final E value) {
        return codeByOrdinal[value.ordinal()] & 0xFF;
    }

    /** Appends the code of a value. */
    public void write(final WireWriter out, final E value) {
        if (value == null) {
            throw new IllegalArgumentException("cannot write a null " + name + ": use one of " + Arrays.toString(byCode));
        }
        out.writeByte(codeByOrdinal[value.ordinal()]);
    }

    /** Reads a code and returns its value; an unknown or retired code is a {@link WireFormatException}. */
    public E read(final WireReader in, final String field) {
        final int at = in.position();
        final int code = in.readUnsignedByte(field);
        if (code >= byCode.length || byCode[code] == null) {
            throw in.error(field, at, "unknown " + name + " code " + code + ": the codes are " + describe());
        }
        return byCode[code];
    }

    private String describe() {
        final StringBuilder sb = new StringBuilder();
        for (int code = 0; code < byCode.length; code++) {
            if (byCode[code] != null) {
                sb.append(sb.length() == 0 ? "" : ", ").append(code).append('=').append(byCode[code]);
            }
        }
        return sb.toString();
    }
}
