// The trained-weights table on a generated Llama-shaped folder of about 2 GB of BF16 (hidden 4096,
// 32 heads, 8 key heads, head_dim 128, intermediate 14336, 4 layers, vocabulary 16000, two shards
// with an index): the folder is written once (WEIGHTS_DIR, default /tmp/rope-weights-bench), read
// once to warm the page cache, then timed on this one thread. Prints the seconds, the bytes of q and
// k read and the GB/s, the folder's size, a plain mmap loop over every byte for scale, and this
// process's peak resident memory.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "rope/params.hpp"
#include "weights/trained_weights.hpp"

namespace fs = std::filesystem;

namespace {

constexpr int kHidden = 4096, kHeads = 32, kKv = 8, kHeadDim = 128, kInter = 14336, kLayers = 4, kVocab = 16000;

struct Tensor {
    std::string name;
    std::vector<long> shape;
    long bytes() const {
        long n = 2;
        for (long d : shape) n *= d;
        return n;
    }
};

std::vector<Tensor> layer_tensors(int l) {
    const std::string p = "model.layers." + std::to_string(l) + ".";
    return {{p + "self_attn.q_proj.weight", {kHeads * kHeadDim, kHidden}}, {p + "self_attn.k_proj.weight", {kKv * kHeadDim, kHidden}},
            {p + "self_attn.v_proj.weight", {kKv * kHeadDim, kHidden}},    {p + "self_attn.o_proj.weight", {kHidden, kHeads * kHeadDim}},
            {p + "mlp.gate_proj.weight", {kInter, kHidden}},                {p + "mlp.up_proj.weight", {kInter, kHidden}},
            {p + "mlp.down_proj.weight", {kHidden, kInter}},                {p + "input_layernorm.weight", {kHidden}},
            {p + "post_attention_layernorm.weight", {kHidden}}};
}

// One shard: header, then each tensor's BF16 values from a cheap generator, written 1 MB at a time.
void write_shard(const fs::path& path, const std::vector<Tensor>& tensors, std::uint32_t seed) {
    std::string json = "{\"__metadata__\":{\"format\":\"pt\"}";
    long at = 0;
    for (const Tensor& t : tensors) {
        json += ",\"" + t.name + "\":{\"dtype\":\"BF16\",\"shape\":[";
        for (std::size_t i = 0; i < t.shape.size(); ++i) json += (i ? "," : "") + std::to_string(t.shape[i]);
        json += "],\"data_offsets\":[" + std::to_string(at) + "," + std::to_string(at + t.bytes()) + "]}";
        at += t.bytes();
    }
    json += "}";
    while ((8 + json.size()) % 8) json += ' ';
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 8; ++i) out.put(static_cast<char>((json.size() >> (8 * i)) & 0xff));
    out << json;
    std::vector<std::uint16_t> chunk(1 << 19);
    std::uint32_t x = seed;
    for (long left = at; left > 0;) {
        const long n = std::min<long>(left / 2, static_cast<long>(chunk.size()));
        for (long i = 0; i < n; ++i) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            // |w| around 0.02: exponent 0x79-0x7a, random sign and mantissa
            chunk[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(((x >> 16) & 0x8000) | (0x3c80 + (x & 0x7f)));
        }
        out.write(reinterpret_cast<const char*>(chunk.data()), n * 2);
        left -= n * 2;
    }
}

void make_folder(const fs::path& dir) {
    fs::create_directories(dir);
    std::ofstream(dir / "config.json") << "{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\",\"hidden_size\":" << kHidden
                                       << ",\"num_attention_heads\":" << kHeads << ",\"num_key_value_heads\":" << kKv
                                       << ",\"head_dim\":" << kHeadDim << ",\"intermediate_size\":" << kInter
                                       << ",\"num_hidden_layers\":" << kLayers << ",\"vocab_size\":" << kVocab
                                       << ",\"rope_theta\":500000.0,\"max_position_embeddings\":8192,\"torch_dtype\":\"bfloat16\"}\n";
    std::vector<Tensor> first = {{"model.embed_tokens.weight", {kVocab, kHidden}}}, second;
    for (int l = 0; l < kLayers; ++l)
        for (const Tensor& t : layer_tensors(l)) (l < kLayers / 2 ? first : second).push_back(t);
    second.push_back({"model.norm.weight", {kHidden}});
    second.push_back({"lm_head.weight", {kVocab, kHidden}});
    std::string map = "{\"metadata\":{},\"weight_map\":{";
    bool comma = false;
    for (auto [tensors, file] : {std::pair{&first, "model-00001-of-00002.safetensors"}, {&second, "model-00002-of-00002.safetensors"}})
        for (const Tensor& t : *tensors) {
            map += std::string(comma ? "," : "") + "\"" + t.name + "\":\"" + file + "\"";
            comma = true;
        }
    std::ofstream(dir / "model.safetensors.index.json") << map << "}}\n";
    write_shard(dir / "model-00001-of-00002.safetensors", first, 12345);
    write_shard(dir / "model-00002-of-00002.safetensors", second, 67890);
}

// For scale: every byte of the shards read through 8 MB maps (a plain mmap loop), summed as words.
double plain_mmap_seconds(const fs::path& dir, std::uint64_t& checksum) {
    const auto t0 = std::chrono::steady_clock::now();
    for (const char* name : {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"}) {
        const int fd = open((dir / name).c_str(), O_RDONLY);
        const std::uint64_t size = fs::file_size(dir / name), window = 8u << 20;
        for (std::uint64_t at = 0; at + 8 <= size; at += window) {
            const std::uint64_t n = std::min(window, size - at) / 8 * 8;
            void* p = mmap(nullptr, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, static_cast<off_t>(at));
            const auto* words = static_cast<const std::uint64_t*>(p);
            for (std::uint64_t i = 0; i < n / 8; ++i) checksum += words[i];
            munmap(p, n);
        }
        close(fd);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main() {
    const char* env = std::getenv("WEIGHTS_DIR");
    const fs::path dir = env ? env : "/tmp/rope-weights-bench";
    if (!fs::exists(dir / "model-00002-of-00002.safetensors")) {
        std::printf("writing %s ...\n", dir.c_str());
        make_folder(dir);
    }
    std::uintmax_t folder_bytes = 0;
    for (const auto& e : fs::directory_iterator(dir)) folder_bytes += fs::file_size(e.path());
    rope::ParamSet params = rope::weights::with_model_folder(rope::ParamSet{}, dir.string());
    auto run = [&] {
        const auto folder = rope::weights::open_model_folder(dir.string());
        return rope::weights::read_weight_usage(*folder, params);
    };
    run();  // the page cache warm
    double best = 1e9;
    std::uint64_t bytes = 0;
    for (int i = 0; i < 3; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        bytes = run().bytes_read;
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::uint64_t checksum = 0;
    double plain = 1e9;
    for (int i = 0; i < 3; ++i) plain = std::min(plain, plain_mmap_seconds(dir, checksum));
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("folder_bytes %.3f GB\n", static_cast<double>(folder_bytes) / 1e9);
    std::printf("table_seconds %.4f (best of 3, one thread, page cache warm)\n", best);
    std::printf("qk_bytes_read %.3f GB\n", static_cast<double>(bytes) / 1e9);
    std::printf("qk_read_GBps %.2f\n", static_cast<double>(bytes) / 1e9 / best);
    std::printf("plain_mmap_loop_seconds %.4f (every byte of the folder, for scale; checksum %llu)\n", plain,
                static_cast<unsigned long long>(checksum % 1000));
    std::printf("peak_rss_MB %.1f\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
    return 0;
}
