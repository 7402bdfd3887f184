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

// A grid-stride sum per thread, then shuffles down each warp.
__global__ void warp_reduce(const float *x, float *out, long n) {
  float v = 0.0f;
  for (long i = threadIdx.x + (long)blockIdx.x * blockDim.x; i < n; i += (long)blockDim.x * gridDim.x)
    v += x[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

// xoroshiro128+ (a=55, b=14, c=36), one generator per thread, as
// ruchey.cuda.random and numba.cuda.random draw: a float32 is the top 53 bits
// as a double, rounded to float.
__host__ __device__ static inline unsigned long long rotl(unsigned long long x, int k) {
  return (x << k) | (x >> (64 - k));
}

__host__ __device__ static inline unsigned long long next(unsigned long long *s) {
  unsigned long long s0 = s[0], s1 = s[1], result = s0 + s1;
  s1 ^= s0;
  s[0] = rotl(s0, 55) ^ s1 ^ (s1 << 14);
  s[1] = rotl(s1, 36);
  return result;
}

__device__ static inline float uniform_float32(unsigned long long *s) {
  return (float)((double)(next(s) >> 11) * (1.0 / 9007199254740992.0));
}

__global__ void monte_carlo(unsigned long long *states, long samples, unsigned long long *hits) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned long long s[2] = {states[2 * i], states[2 * i + 1]};
  long inside = 0;
  for (long k = 0; k < samples; k++) {
    float x = uniform_float32(s), y = uniform_float32(s);
    if (x * x + y * y <= 1.0f) inside++;
  }
  states[2 * i] = s[0];
  states[2 * i + 1] = s[1];
  atomicAdd(hits, (unsigned long long)inside);
}

// n states from seed as numba-cuda makes them: SplitMix64 of the seed in both
// words, then each state the one before it jumped 2**64 steps.
static void init_states(std::vector<unsigned long long> &st, long n, unsigned long long seed) {
  unsigned long long z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  st.assign(2 * n, 0);
  st[0] = st[1] = z;
  const unsigned long long jump[2] = {0xBEAC0467EBA5FACBull, 0xD86B048B86AA9922ull};
  for (long i = 1; i < n; i++) {
    unsigned long long s[2] = {st[2 * i - 2], st[2 * i - 1]}, t0 = 0, t1 = 0;
    for (int w = 0; w < 2; w++)
      for (int b = 0; b < 64; b++) {
        if (jump[w] >> b & 1) {
          t0 ^= s[0];
          t1 ^= s[1];
        }
        next(s);
      }
    st[2 * i] = t0;
    st[2 * i + 1] = t1;
  }
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
  double t_warp = median_ms([&] { warp_reduce<<<1024, 256>>>(a, out, n); }, repeats);
  const long mc_threads = 1 << 16, mc_samples = 1024;
  std::vector<unsigned long long> st;
  init_states(st, mc_threads, 1);
  unsigned long long *states, *hits, first_hits = 0;
  CHECK(cudaMalloc(&states, st.size() * sizeof(st[0])));
  CHECK(cudaMalloc(&hits, sizeof(unsigned long long)));
  CHECK(cudaMemcpy(states, st.data(), st.size() * sizeof(st[0]), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(hits, 0, sizeof(unsigned long long)));
  monte_carlo<<<mc_threads / 256, 256>>>(states, mc_samples, hits);  // the first launch's count
  CHECK(cudaMemcpy(&first_hits, hits, sizeof first_hits, cudaMemcpyDeviceToHost));
  double t_mc = median_ms([&] { monte_carlo<<<mc_threads / 256, 256>>>(states, mc_samples, hits); }, repeats);
  double l0 = launch_us([&] { args0<<<1, 1>>>(); });
  double l1 = launch_us([&] { args1<<<1, 1>>>(a); });
  double l2 = launch_us([&] { args2<<<1, 1>>>(a, b); });
  double l3 = launch_us([&] { args3<<<1, 1>>>(a, b, c); });
  double l4 = launch_us([&] { args4<<<1, 1>>>(a, b, c, out); });
  printf("{\"seed\": %.6f, \"vector_add\": %.6f, \"matmul\": %.6f, \"reduce\": %.6f, "
         "\"warp_reduce\": %.6f, \"monte_carlo\": %.6f, \"monte_carlo_hits\": %llu, "
         "\"launch_us\": [%.3f, %.3f, %.3f, %.3f, %.3f]}\n",
         t_seed, t_add, t_mm, t_red, t_warp, t_mc, first_hits, l0, l1, l2, l3, l4);
  return 0;
}
