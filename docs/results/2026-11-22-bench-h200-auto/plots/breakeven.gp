# SpMVs needed to pay back the conversion from CSR (Reguly's figure 16); missing bars: never faster than CSR.
set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1; set logscale y
set ylabel 'SpMVs to break even against the fastest CSR kernel'; set grid y; set xtics rotate by -40 noenhanced; set key outside right
plot for [i=2:6] 'breakeven.dat' using i:xtic(1) title columnheader(i)
