-- QUALIFY filters on window functions after they are computed.
select n_regionkey, n_name, row_number() over (partition by n_regionkey order by n_name) as rn from nation
qualify rn = 1 order by n_regionkey;
select c_nationkey, c_custkey, c_acctbal from customer
qualify rank() over (partition by c_nationkey order by c_acctbal desc, c_custkey) <= 2
order by c_nationkey, c_custkey;
