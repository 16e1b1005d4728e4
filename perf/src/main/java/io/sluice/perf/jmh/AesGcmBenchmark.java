package io.sluice.perf.jmh;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JDK's AES-GCM on one thread, in messages per second (times {@code size} for bytes per second):
 * the ceiling of the encrypted data path, which seals each 64 KiB segment of a frame with one
 * {@code init} and one {@code doFinal} and opens it the same way ({@code FrameCipher}); 1 MiB in one
 * call shows why it segments. {@code memory} says where input and output lie: heap arrays,
 * direct buffers (the Aeron log is direct), or one of each; {@code keyBits} AES-128 or AES-256;
 * {@code copy} is a plain copy of the same bytes, the cost the encryption replaces.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1)
public class AesGcmBenchmark {
    private static final int TAG_BITS = 128;
    private static final int AAD_LENGTH = 48;

    /** A key, a payload, room for its sealed form, and one cipher reused for every message. */
    @State(Scope.Thread)
    public static class Message {
        /** Where the input and output lie: {@code heap}, {@code direct}, or {@code directToHeap}, {@code heapToDirect}. */
        @Param({"heap", "direct", "directToHeap", "heapToDirect"})
        String memory;

        @Param({"128", "256"})
        int keyBits;

        @Param({"65536", "1048576"})
        int size;

        Cipher cipher;
        SecretKeySpec key;
        final byte[] iv = new byte[12];
        long sequence;
        ByteBuffer aad;
        /** Input side: the payload, and a copy of its sealed form. */
        ByteBuffer plain;
        ByteBuffer sealedIn;
        /** Output side. */
        ByteBuffer sealed;
        ByteBuffer opened;

        @Setup(Level.Trial)
        public void setUp() throws GeneralSecurityException {
            final ThreadLocalRandom random = ThreadLocalRandom.current();
            final byte[] keyBytes = new byte[keyBits / 8];
            random.nextBytes(keyBytes);
            key = new SecretKeySpec(keyBytes, "AES");
            cipher = Cipher.getInstance("AES/GCM/NoPadding");
            aad = ByteBuffer.allocate(AAD_LENGTH);
            final boolean directIn = memory.startsWith("direct");
            final boolean directOut = "direct".equals(memory) || "heapToDirect".equals(memory);
            plain = allocate(size, directIn);
            final byte[] bytes = new byte[size];
            random.nextBytes(bytes);
            plain.put(bytes).flip();
            sealed = allocate(size + TAG_BITS / 8, directOut);
            opened = allocate(size, directOut);
            seal();
            sealedIn = allocate(size + TAG_BITS / 8, directIn);
            sealedIn.put(sealed.flip()).flip();
        }

        private static ByteBuffer allocate(final int length, final boolean direct) {
            return direct ? ByteBuffer.allocateDirect(length) : ByteBuffer.allocate(length);
        }

        int seal() throws GeneralSecurityException {
            nextIv();
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(aad.clear());
            sealed.clear();
            return cipher.doFinal(plain.clear(), sealed);
        }

        int open() throws GeneralSecurityException {
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(aad.clear());
            opened.clear();
            return cipher.doFinal(sealedIn.clear(), opened);
        }

        private void nextIv() {
            final long s = ++sequence;
            for (int i = 0; i < 8; i++) {
                iv[i] = (byte) (s >>> (8 * i));
            }
        }
    }

    @Benchmark
    public int seal(final Message m) throws GeneralSecurityException {
        return m.seal();
    }

    /** Opens the message sealed at set-up (under the current IV): decryption and tag check. */
    @Benchmark
    public int open(final Message m) throws GeneralSecurityException {
        return m.open();
    }

    @Benchmark
    public ByteBuffer copy(final Message m) {
        m.opened.clear();
        return m.opened.put(m.plain.clear());
    }
}
