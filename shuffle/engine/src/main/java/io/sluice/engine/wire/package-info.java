/**
 * Bounds-checked binary encoding over Agrona buffers, for messages that cross process boundaries:
 * a {@link io.sluice.engine.wire.WireWriter} appends little-endian fixed-width values, UTF-8
 * strings and byte arrays; a {@link io.sluice.engine.wire.WireReader} reads them back, checking
 * before every read (and before allocating for a string, array or list) that the bytes are there.
 * {@link io.sluice.engine.wire.EnumCodes} gives enum values stable wire codes. Bad input is
 * always a {@link io.sluice.engine.wire.WireFormatException} naming the field, the offset and the
 * problem.
 *
 * <p>Knows bytes only, nothing of what a message means; depends on Agrona and nothing else.
 */
package io.sluice.engine.wire;
