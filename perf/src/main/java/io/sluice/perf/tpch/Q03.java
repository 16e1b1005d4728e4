package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.date;
import static io.sluice.engine.expr.Expr.eq;
import static io.sluice.engine.expr.Expr.gt;
import static io.sluice.engine.expr.Expr.lit;
import static io.sluice.engine.expr.Expr.lt;
import static io.sluice.engine.expr.Expr.mul;
import static io.sluice.engine.expr.Expr.str;
import static io.sluice.engine.expr.Expr.sub;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.plan.Plan;
import io.sluice.zonemap.Predicate;
import java.util.List;

/** TPC-H Q3, shipping priority (SEGMENT BUILDING, DATE 1995-03-15). */
public final class Q03 implements Query {
    static final String SQL = TpchSql.text(3);

    @Override
    public String name() {
        return "q3";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("customer", "orders", "lineitem");
    }

    @Override
    public Plan plan() {
        final Plan building = Plan.scan("customer", "c_custkey", "c_mktsegment")
                .filter(eq(col("c_mktsegment"), str("BUILDING")));
        final Plan orders = Plan.scan("orders", "o_orderkey", "o_custkey", "o_orderdate", "o_shippriority")
                .prune(Predicate.lt("o_orderdate", Query.day("1995-03-15")))
                .filter(lt(col("o_orderdate"), date("1995-03-15")))
                .join(JoinType.SEMI, building, List.of("o_custkey"), List.of("c_custkey"));
        return Plan.scan("lineitem", "l_orderkey", "l_extendedprice", "l_discount", "l_shipdate")
                .prune(Predicate.gt("l_shipdate", Query.day("1995-03-15")))
                .filter(gt(col("l_shipdate"), date("1995-03-15")))
                .join(JoinType.INNER, orders, List.of("l_orderkey"), List.of("o_orderkey"))
                .aggregate(Plan.groupBy("l_orderkey", "o_orderdate", "o_shippriority"),
                        Plan.sum(mul(col("l_extendedprice"), sub(lit(1), col("l_discount"))), "revenue"))
                .select("l_orderkey", "revenue", "o_orderdate", "o_shippriority")
                .orderBy(SortKey.desc("revenue"), SortKey.asc("o_orderdate"))
                .limit(10);
    }
}
