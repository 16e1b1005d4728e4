package io.sluice.perf.csv;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes UTF-8 strictly, and reports a malformed byte only once every character before it has been
 * read: a reader that counts lines then knows the line the bad byte is on. (The JDK's readers decode
 * ahead in large chunks and throw as soon as a chunk holds a bad byte, losing the text before it.)
 */
final class Utf8Reader extends Reader {
    private final InputStream in;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteBuffer bytes = ByteBuffer.allocate(64 * 1024).flip();
    private CoderResult error;
    private boolean endOfInput;
    private boolean flushed;
    private long bytesRead;

    Utf8Reader(final InputStream in) {
        this.in = in;
    }

    @Override
    public int read(final char[] target, final int offset, final int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        final CharBuffer out = CharBuffer.wrap(target, offset, length);
        while (out.position() == offset) {
            if (error != null) {
                error.throwException();
            }
            if (flushed) {
                return -1;
            }
            final CoderResult result = decoder.decode(bytes, out, endOfInput);
            if (result.isError()) {
                error = result;
            } else if (result.isUnderflow()) {
                if (endOfInput) {
                    final CoderResult flush = decoder.flush(out);
                    if (flush.isError()) {
                        error = flush;
                    } else {
                        flushed = true;
                    }
                } else {
                    fill();
                }
            }
        }
        return out.position() - offset;
    }

    private void fill() throws IOException {
        bytes.compact();
        final int n = in.read(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
        if (n < 0) {
            endOfInput = true;
        } else {
            bytes.position(bytes.position() + n);
            bytesRead += n;
        }
        bytes.flip();
    }

    /** Bytes taken from the stream so far (up to 64 KiB ahead of the characters returned). */
    long bytesRead() {
        return bytesRead;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
