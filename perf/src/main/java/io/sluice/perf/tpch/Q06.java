package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.and;
import static io.sluice.engine.expr.Expr.between;
import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.date;
import static io.sluice.engine.expr.Expr.dec;
import static io.sluice.engine.expr.Expr.ge;
import static io.sluice.engine.expr.Expr.lit;
import static io.sluice.engine.expr.Expr.lt;
import static io.sluice.engine.expr.Expr.mul;

import io.sluice.engine.expr.Dates;
import io.sluice.engine.plan.Plan;
import io.sluice.zonemap.Predicate;
import java.util.List;

/** TPC-H Q6, forecasting revenue change (DATE 1994-01-01, DISCOUNT 0.06, QUANTITY 24). */
public final class Q06 implements Query {
    static final String SQL = TpchSql.text(6);

    @Override
    public String name() {
        return "q6";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("lineitem");
    }

    @Override
    public Plan plan() {
        return Plan.scan("lineitem", "l_extendedprice", "l_discount", "l_shipdate", "l_quantity")
                .prune(Predicate.ge("l_shipdate", Query.day("1994-01-01")),
                        Predicate.lt("l_shipdate", Query.day("1995-01-01")))
                .filter(and(ge(col("l_shipdate"), date("1994-01-01")),
                        lt(col("l_shipdate"), Dates.plusYears("1994-01-01", 1)),
                        between(col("l_discount"), dec("0.05"), dec("0.07")),
                        lt(col("l_quantity"), lit(24))))
                .aggregate(Plan.noKeys(), Plan.sum(mul(col("l_extendedprice"), col("l_discount")), "revenue"));
    }
}
