// gpu_kernels.cu — the kernels bench/gpu_bench.py times, in CUDA C, as the
// reference ruchey's PTX is held to. Built by bench/gpu_check.sh with
//   nvcc -O3 -arch=native bench/gpu_kernels.cu -o gpu_kernels
// and run as `gpu_kernels N_VECTOR N_MATRIX REPEATS`: prints one JSON object
// with each kernel's median time (ms, CUDA events) and the host time of one
// launch of an empty kernel taking 0 to 4 arrays (µs).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e = (call);                                                      \
    if (e != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

#define TPB 16

__global__ void seed(double *io, long n) {
  long i = threadIdx.x + (long)blockIdx.x * blockDim.x;
  if (i < n) io[i] *= 2;
}

__global__ void vector_add(const float *a, const float *b, float *c, long n) {
  long i = threadIdx.x + (long)blockIdx.x * blockDim.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float sA[TPB][TPB], sB[TPB][TPB];
  int x = threadIdx.x + blockIdx.x * blockDim.x, y = threadIdx.y + blockIdx.y * blockDim.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  float tmp = 0;
  for (int i = 0; i < (int)gridDim.x; i++) {
    sA[ty][tx] = 0;
    sB[ty][tx] = 0;
    if (y < n && tx + i * TPB < n) sA[ty][tx] = A[y * n + tx + i * TPB];
    if (x < n && ty + i * TPB < n) sB[ty][tx] = B[(ty + i * TPB) * n + x];
    __syncthreads();
    for (int j = 0; j < TPB; j++) tmp += sA[ty][j] * sB[j][tx];
    __syncthreads();
  }
  if (y < n && x < n) C[y * n + x] = tmp;
}

__global__ void reduce(const float *x, float *out, long n) {
  __shared__ float sh[256];
  int tid = threadIdx.x;
  long i = tid + (long)blockIdx.x * blockDim.x;
  sh[tid] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) sh[tid] += sh[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, sh[0]);
}

__global__ void args0() {}
__global__ void args1(float *a) {}
__global__ void args2(float *a, float *b) {}
__global__ void args3(float *a, float *b, float *c) {}
__global__ void args4(float *a, float *b, float *c, float *d) {}

// The median time in ms of `repeats` runs of launch, each timed with events.
template <class F> static double median_ms(F launch, int repeats) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  launch();  // warm-up: module load
  CHECK(cudaDeviceSynchronize());
  std::vector<float> times;
  for (int r = 0; r < repeats; r++) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  CHECK(cudaGetLastError());
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Host microseconds per launch, over many launches of an empty kernel.
template <class F> static double launch_us(F launch) {
  const int n = 5000;
  launch();
  CHECK(cudaDeviceSynchronize());
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; i++) launch();
  auto t1 = std::chrono::steady_clock::now();
  CHECK(cudaDeviceSynchronize());
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1 << 24;
  int m = argc > 2 ? atoi(argv[2]) : 1024;
  int repeats = argc > 3 ? atoi(argv[3]) : 20;
  std::vector<float> host(std::max<long>(n, (long)m * m));
  for (size_t i = 0; i < host.size(); i++) host[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
  double *io;
  float *a, *b, *c, *out;
  CHECK(cudaMalloc(&io, n * sizeof(double)));
  CHECK(cudaMalloc(&a, host.size() * sizeof(float)));
  CHECK(cudaMalloc(&b, host.size() * sizeof(float)));
  CHECK(cudaMalloc(&c, host.size() * sizeof(float)));
  CHECK(cudaMalloc(&out, sizeof(float)));
  CHECK(cudaMemset(io, 0, n * sizeof(double)));
  CHECK(cudaMemcpy(a, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  unsigned blocks = (unsigned)((n + 255) / 256);
  dim3 mgrid((m + TPB - 1) / TPB, (m + TPB - 1) / TPB), mblock(TPB, TPB);
  double t_seed = median_ms([&] { seed<<<blocks, 256>>>(io, n); }, repeats);
  double t_add = median_ms([&] { vector_add<<<blocks, 256>>>(a, b, c, n); }, repeats);
  double t_mm = median_ms([&] { matmul<<<mgrid, mblock>>>(a, b, c, m); }, repeats);
  double t_red = median_ms([&] { reduce<<<blocks, 256>>>(a, out, n); }, repeats);
  double l0 = launch_us([&] { args0<<<1, 1>>>(); });
  double l1 = launch_us([&] { args1<<<1, 1>>>(a); });
  double l2 = launch_us([&] { args2<<<1, 1>>>(a, b); });
  double l3 = launch_us([&] { args3<<<1, 1>>>(a, b, c); });
  double l4 = launch_us([&] { args4<<<1, 1>>>(a, b, c, out); });
  printf("{\"seed\": %.6f, \"vector_add\": %.6f, \"matmul\": %.6f, \"reduce\": %.6f, "
         "\"launch_us\": [%.3f, %.3f, %.3f, %.3f, %.3f]}\n",
         t_seed, t_add, t_mm, t_red, l0, l1, l2, l3, l4);
  return 0;
}
