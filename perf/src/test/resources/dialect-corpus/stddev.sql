-- STDDEV and VARIANCE (sample and population) of decimals and integers, in doubles as DuckDB computes them.
select l_returnflag, stddev_samp(l_quantity) as sq, stddev_pop(l_extendedprice) as pe, var_samp(l_discount) as vd,
       var_pop(l_linenumber) as vl from lineitem group by l_returnflag order by l_returnflag;
select stddev(o_totalprice) as s, variance(o_totalprice) as v from orders;
