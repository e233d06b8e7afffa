set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1
set ylabel 'best hsparse / best cuSPARSE'; set grid y; set key top right; set xtics rotate by -40 noenhanced
set arrow from graph 0, first 1 to graph 1, first 1 nohead lw 2 dt 2
plot 'speedup.dat' using 2:xtic(1) title 'vs best cuSPARSE (any format)', '' using 3 title 'vs best cuSPARSE CSR'
