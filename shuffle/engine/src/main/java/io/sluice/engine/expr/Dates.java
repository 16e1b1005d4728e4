package io.sluice.engine.expr;

import java.time.LocalDate;

/** Date constants and interval arithmetic, folded when a plan is written (no per-row work). */
public final class Dates {
    private Dates() {
    }

    /** {@code DATE 'iso' + INTERVAL 'n' DAY} (n may be negative). */
    public static Expr plusDays(final String iso, final long days) {
        return Expr.date(LocalDate.parse(iso).plusDays(days));
    }

    /** {@code DATE 'iso' + INTERVAL 'n' MONTH}. */
    public static Expr plusMonths(final String iso, final long months) {
        return Expr.date(LocalDate.parse(iso).plusMonths(months));
    }

    /** {@code DATE 'iso' + INTERVAL 'n' YEAR}. */
    public static Expr plusYears(final String iso, final long years) {
        return Expr.date(LocalDate.parse(iso).plusYears(years));
    }

    /** The year of an epoch day, without allocation (proleptic Gregorian). */
    public static long yearOf(final long epochDay) {
        // Howard Hinnant's civil_from_days, shifted so that years start in March.
        final long z = epochDay + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final long doe = z - era * 146_097;
        final long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        final long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        final long mp = (5 * doy + 2) / 153;
        final long month = mp < 10 ? mp + 3 : mp - 9;
        return yoe + era * 400 + (month <= 2 ? 1 : 0);
    }
}
