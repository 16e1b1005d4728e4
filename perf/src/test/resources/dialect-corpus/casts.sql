-- CAST between the supported types.
select o_orderkey, cast(o_orderkey as varchar) as k, cast(o_totalprice as varchar) as p,
       cast(o_orderdate as varchar) as d from orders where o_orderkey < 40 order by o_orderkey;
select o_orderkey, cast(o_totalprice as bigint) as whole, cast(o_totalprice as decimal(12,1)) as tenth,
       cast(o_totalprice as double) as dbl from orders where o_orderkey < 40 order by o_orderkey;
select cast(substring(c_phone from 1 for 2) as integer) as country, count(*) as n from customer
group by cast(substring(c_phone from 1 for 2) as integer) order by country;
select cast('1995-03-15' as date) as d from region where r_regionkey = 0;
select l_orderkey, l_linenumber, cast(l_quantity as integer) * 2 as q2, cast(l_discount * 100 as integer) as pct
from lineitem where l_orderkey < 10 order by l_orderkey, l_linenumber;
-- ROUND of decimals and doubles, to a scale, half away from zero.
select o_orderkey, round(o_totalprice, 1) as r1, round(o_totalprice, -2) as hundreds, round(o_totalprice) as whole,
       round(o_totalprice / 7, 3) as dbl from orders where o_orderkey < 40 order by o_orderkey;
-- CASTs and functions of constants, folded when the plan is written (TPC-DS Q83's date IN list of strings).
select count(*) as n from orders
where o_orderdate in (cast('1995-03-15' as date), cast('1996-01-02' as date), cast('1997-12-31' as date));
select o_orderkey, o_orderdate from orders where o_orderdate in ('1995-03-15', '1996-01-02') order by o_orderkey;
select upper('abc') as u, lpad('7', 3, '0') as p, cast('12.5' as decimal(5,1)) as d, cast(42 as varchar) as s
from region where r_regionkey = 0;
