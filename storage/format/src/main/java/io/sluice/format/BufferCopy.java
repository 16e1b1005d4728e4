package io.sluice.format;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

/**
 * Bulk copies between primitive arrays and little-endian buffer ranges: one bounds check, then a
 * memory copy (or a loop on a big-endian machine).
 */
final class BufferCopy {
    private static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final long LONG_BASE = UnsafeApi.arrayBaseOffset(long[].class);
    private static final long INT_BASE = UnsafeApi.arrayBaseOffset(int[].class);

    private BufferCopy() {
    }

    static void fromLongs(final long[] src, final int count, final MutableDirectBuffer dst, final int index) {
        dst.boundsCheck(index, 8 * count);
        if (NATIVE_LE) {
            UnsafeApi.copyMemory(src, LONG_BASE, dst.byteArray(), dst.addressOffset() + index, 8L * count);
        } else {
            for (int i = 0; i < count; i++) {
                dst.putLong(index + 8 * i, src[i], ByteOrder.LITTLE_ENDIAN);
            }
        }
    }

    static void fromInts(final int[] src, final int count, final MutableDirectBuffer dst, final int index) {
        dst.boundsCheck(index, 4 * count);
        if (NATIVE_LE) {
            UnsafeApi.copyMemory(src, INT_BASE, dst.byteArray(), dst.addressOffset() + index, 4L * count);
        } else {
            for (int i = 0; i < count; i++) {
                dst.putInt(index + 4 * i, src[i], ByteOrder.LITTLE_ENDIAN);
            }
        }
    }

    static void toLongs(final DirectBuffer src, final int index, final long[] dst, final int count) {
        src.boundsCheck(index, 8 * count);
        if (NATIVE_LE) {
            UnsafeApi.copyMemory(src.byteArray(), src.addressOffset() + index, dst, LONG_BASE, 8L * count);
        } else {
            for (int i = 0; i < count; i++) {
                dst[i] = src.getLong(index + 8 * i, ByteOrder.LITTLE_ENDIAN);
            }
        }
    }

    static void toInts(final DirectBuffer src, final int index, final int[] dst, final int count) {
        src.boundsCheck(index, 4 * count);
        if (NATIVE_LE) {
            UnsafeApi.copyMemory(src.byteArray(), src.addressOffset() + index, dst, INT_BASE, 4L * count);
        } else {
            for (int i = 0; i < count; i++) {
                dst[i] = src.getInt(index + 4 * i, ByteOrder.LITTLE_ENDIAN);
            }
        }
    }

    /**
     * Gathers {@code dst[i] = long at index + 8 * rows[i]} for {@code i < count}. The caller has checked that
     * every row lies in {@code [0, span)} and that {@code span} longs follow {@code index}.
     */
    static void gatherLongs(final DirectBuffer src, final int index, final int span, final int[] rows, final int count,
                            final long[] dst) {
        src.boundsCheck(index, 8 * span);
        if (NATIVE_LE) {
            final byte[] base = src.byteArray();
            final long address = src.addressOffset() + index;
            for (int i = 0; i < count; i++) {
                dst[i] = UnsafeApi.getLong(base, address + 8L * rows[i]);
            }
        } else {
            for (int i = 0; i < count; i++) {
                dst[i] = src.getLong(index + 8 * rows[i], ByteOrder.LITTLE_ENDIAN);
            }
        }
    }

    /** As {@link #gatherLongs} for ints: {@code dst[i] = int at index + 4 * rows[i]}. */
    static void gatherInts(final DirectBuffer src, final int index, final int span, final int[] rows, final int count,
                           final int[] dst) {
        src.boundsCheck(index, 4 * span);
        if (NATIVE_LE) {
            final byte[] base = src.byteArray();
            final long address = src.addressOffset() + index;
            for (int i = 0; i < count; i++) {
                dst[i] = UnsafeApi.getInt(base, address + 4L * rows[i]);
            }
        } else {
            for (int i = 0; i < count; i++) {
                dst[i] = src.getInt(index + 4 * rows[i], ByteOrder.LITTLE_ENDIAN);
            }
        }
    }
}
