package io.sluice.dispatch.control;

/**
 * How the coordinator sees a CN, by the time since it last heard from it: alive, suspect after about
 * a second of silence, dead after about three (then it leaves the membership).
 */
public enum MemberState {
    ALIVE, SUSPECT, DEAD;

    /** The name {@code cluster status} prints. */
    public String cliName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
