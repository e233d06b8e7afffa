# Roofline (SELL-C-sigma paper eq. (10)): GFLOP/s against arithmetic intensity under each kernel's own minimum traffic.
b = 3079.7  # measured read bandwidth, GB/s
set logscale xy; set grid; set key top left; set xlabel 'flop per byte (kernel format, minimum traffic)'; set ylabel 'GFLOP/s'
set title 'Roofline, cuda: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB, L2 50 MiB) (points above the line: data partly served from cache)' noenhanced
plot b*x title sprintf('read bandwidth %.0f GB/s', b) lw 2, 'roofline.dat' index 0 using 1:2 with points pt 7 ps 0.8 title 'cusparse', 'roofline.dat' index 1 using 1:2 with points pt 7 ps 0.8 title 'hsparse'
