-- Doubles as GROUP BY keys and under UNION's duplicate removal (TPC-DS Q36, Q49).
select a, count(*) as n from (select l_orderkey, avg(l_linenumber) as a from lineitem group by l_orderkey) q
group by a order by a;
select r from (select avg(l_quantity) as r from lineitem where l_returnflag = 'A'
               union select avg(l_quantity) as r from lineitem where l_returnflag = 'R'
               union select avg(l_quantity) as r from lineitem where l_returnflag = 'A') u order by r;
select o_orderstatus, stddev_samp(o_totalprice) as s, count(*) as n from orders group by o_orderstatus
order by o_orderstatus;
