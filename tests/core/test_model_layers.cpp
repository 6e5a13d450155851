// A model's layers in the parameter table: layer_kinds / model_layers text, their checks, and what
// selecting a layer loads (rope/model_layers.hpp, ParamSet::with_kind, set("layer")).
#include <gtest/gtest.h>

#include <string>

#include "rope/model_layers.hpp"
#include "rope/params.hpp"

using namespace rope;

namespace {

const char* kGemma3Kinds = "sliding_attention: window=1024 base=10000 dim=256; "
                           "full_attention: base=1000000 dim=256 scaling=linear factor=8";

// The message of the ParamError that `f` throws ("" if none).
template <typename F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const ParamError& e) {
        return e.what();
    }
    return "";
}

ParamSet gemma3_like() {
    ParamSet p;
    p.set(P::layer_kinds, kGemma3Kinds);
    p.set(P::model_layers, "5*sliding_attention,full_attention,5*sliding_attention,full_attention");
    p.validate();
    return p;
}

}  // namespace

TEST(ModelLayers, LayerKindsTextRoundTrips) {
    const std::string text = "sliding_attention: window=1024 base=10000; full_attention: attention=chunked window=8192 "
                             "dim=512 base=1000000 scaling=proportional rotary_fraction=0.25; nope_layer: nope=true";
    const std::vector<LayerKind> kinds = parse_layer_kinds(text);
    ASSERT_EQ(kinds.size(), 3u);
    EXPECT_EQ(kinds[0].attention, Attention::sliding);  // from the name's prefix
    EXPECT_EQ(kinds[0].window, 1024);
    EXPECT_EQ(kinds[1].attention, Attention::chunked);  // given: overrides the name
    EXPECT_EQ(kinds[1].window, 8192);
    ASSERT_NE(kinds[1].value(P::scaling), nullptr);
    EXPECT_EQ(*kinds[1].value(P::scaling), "proportional");
    EXPECT_EQ(kinds[1].value(P::factor), nullptr);
    EXPECT_EQ(kinds[2].attention, Attention::full);
    const std::string formatted = format_layer_kinds(kinds);
    EXPECT_EQ(format_layer_kinds(parse_layer_kinds(formatted)), formatted);
    const std::vector<LayerKind> again = parse_layer_kinds(formatted);
    ASSERT_EQ(again.size(), kinds.size());
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        EXPECT_EQ(again[i].name, kinds[i].name);
        EXPECT_EQ(again[i].attention, kinds[i].attention);
        EXPECT_EQ(again[i].window, kinds[i].window);
        EXPECT_EQ(again[i].values, kinds[i].values);
    }
    // the layer list: runs expand and merge back
    const std::vector<std::string> names = parse_layer_list("3*a, b,2*a");
    EXPECT_EQ(names, (std::vector<std::string>{"a", "a", "a", "b", "a", "a"}));
    EXPECT_EQ(format_layer_list(names), "3*a,b,2*a");
    // and through the parameter table
    const ParamSet p = gemma3_like();
    ParamSet q;
    for (const auto& [k, v] : p.to_key_values()) q.set(k, v);
    EXPECT_EQ(q.model_layers().layers(), 12);
    EXPECT_EQ(q.value_text(P::layer_kinds), p.value_text(P::layer_kinds));
}

TEST(ModelLayers, ErrorsNameTheKindAndTheKey) {
    ParamSet p;
    const std::string bad_value = error_of([&] { p.set(P::layer_kinds, "local: base=0.5; global: base=1e6"); });
    EXPECT_NE(bad_value.find("kind 'local'"), std::string::npos) << bad_value;
    EXPECT_NE(bad_value.find("base"), std::string::npos) << bad_value;
    const std::string bad_key = error_of([&] { p.set(P::layer_kinds, "local: window=10 bogus=1"); });
    EXPECT_NE(bad_key.find("'bogus' is not a layer key"), std::string::npos) << bad_key;
    EXPECT_NE(bad_key.find("kind 'local'"), std::string::npos) << bad_key;
    const std::string twice = error_of([&] { p.set(P::layer_kinds, "a: base=1e4; a: base=2"); });
    EXPECT_NE(twice.find("kind 'a' is given twice"), std::string::npos) << twice;
    EXPECT_THROW(p.set(P::model_layers, "0*a"), ParamError);
    // a listed kind with no entry
    p.set(P::layer_kinds, "a: base=1e4");
    p.set(P::model_layers, "a,b");
    const std::string missing = error_of([&] { p.validate(); });
    EXPECT_NE(missing.find("kind 'b' has no entry in layer_kinds"), std::string::npos) << missing;
    EXPECT_EQ(missing.find('\n'), std::string::npos);
}

TEST(ModelLayers, LayerKindsAndModelLayersGoTogether) {
    ParamSet kinds_only;
    kinds_only.set(P::layer_kinds, kGemma3Kinds);
    const std::string e = error_of([&] { kinds_only.validate(); });
    EXPECT_NE(e.find("layer_kinds and model_layers go together"), std::string::npos) << e;
    ParamSet list_only;
    list_only.set(P::model_layers, "2*a");
    EXPECT_NE(error_of([&] { list_only.validate(); }).find("model_layers="), std::string::npos);
    // a layer without a model
    ParamSet none;
    EXPECT_NE(error_of([&] { none.set(P::layer, "0"); }).find("no layer list"), std::string::npos);
}

TEST(ModelLayers, LayerOutOfRange) {
    ParamSet p = gemma3_like();
    const std::string e = error_of([&] { p.set(P::layer, "12"); });
    EXPECT_NE(e.find("layer=12"), std::string::npos) << e;
    EXPECT_NE(e.find("from 0 to 11"), std::string::npos) << e;
    EXPECT_NE(e.find("12 layers"), std::string::npos) << e;
    EXPECT_FALSE(p.has(P::layer));  // nothing changed
    ParamSet one;
    one.set(P::layer_kinds, "a: base=1e4");
    one.set(P::model_layers, "a");
    const std::string single = error_of([&] { one.set(P::layer, "1"); });
    EXPECT_NE(single.find("(the model has 1 layer)"), std::string::npos) << single;
}

TEST(ModelLayers, AKindMustBeAWholeValidConfig) {
    // proportional RoPE with so small a fraction that no pair turns: int(16 * 0.1) // 2 = 0
    ParamSet p;
    p.set(P::layer_kinds, "a: dim=16 scaling=proportional rotary_fraction=0.1; b: base=1e4");
    p.set(P::model_layers, "a,b");
    const std::string e = error_of([&] { p.validate(); });
    EXPECT_NE(e.find("kind 'a'"), std::string::npos) << e;
    EXPECT_NE(e.find("rotary_fraction"), std::string::npos) << e;
    // llama3 whose factors are the wrong way round, only as a whole config
    ParamSet q;
    q.set(P::layer_kinds, "g: scaling=llama3 low_freq_factor=4 high_freq_factor=1");
    q.set(P::model_layers, "g");
    EXPECT_NE(error_of([&] { q.validate(); }).find("kind 'g'"), std::string::npos);
}

TEST(ModelLayers, SelectingALayerLoadsItsKindAndResetsThePrevious) {
    ParamSet p = gemma3_like();
    p.set(P::pairing, "half");  // model-level: kept
    p.set(P::max_position, "32768");
    p.set(P::layer, "5");  // full_attention
    EXPECT_EQ(p.value_text(P::scaling), "linear");
    EXPECT_EQ(p[P::factor], 8.0);
    EXPECT_EQ(p[P::base], 1e6);
    p.set(P::layer, "6");  // sliding_attention: says nothing of scaling, so it goes back to none
    EXPECT_EQ(p.value_text(P::scaling), "none");
    EXPECT_EQ(p[P::factor], 1.0);
    EXPECT_EQ(p[P::base], 1e4);
    EXPECT_EQ(p[P::layer], 6);
    EXPECT_EQ(p.value_text(P::pairing), "half");
    EXPECT_EQ(p[P::max_position], 32768);
    p.validate();
    // a layer-level key set by hand is reset too when a layer is loaded
    p.set(P::rotary_fraction, "0.5");
    p.set(P::layer, "0");
    EXPECT_EQ(p[P::rotary_fraction], 1.0);
}

TEST(ModelLayers, SelectingALayerClampsThePairAndDropsVectorsOfAnotherLength) {
    ParamSet p;
    p.set(P::layer_kinds, "wide: dim=256; narrow: dim=16");
    p.set(P::model_layers, "wide,narrow");
    p.set(P::layer, "0");
    p.set(P::pair, "100");
    std::string vector;
    for (int i = 0; i < 256; ++i) vector += (i ? ",0.5" : "0.5");
    p.set(P::vector, vector);
    p.validate();
    p.set(P::layer, "1");
    EXPECT_EQ(p[P::dim], 16);
    EXPECT_EQ(p[P::pair], 7);  // the last of 8 pairs
    EXPECT_FALSE(p.has(P::vector));
    p.validate();
}

TEST(ModelLayers, NopeAndProportionalKinds) {
    ParamSet p;
    p.set(P::layer_kinds, "rope_layer: base=500000; nope_layer: nope=true; global: dim=512 base=1e6 scaling=proportional rotary_fraction=0.25");
    p.set(P::model_layers, "3*rope_layer,nope_layer,global");
    p.validate();
    p.set(P::layer, "3");
    EXPECT_TRUE(p[P::nope]);
    EXPECT_EQ(p.config().rotating_pairs(), 0);
    p.set(P::layer, "4");
    EXPECT_FALSE(p[P::nope]);
    EXPECT_EQ(p.config().rotating_pairs(), 64);
    EXPECT_EQ(p.config().rotated_dims(), 512);
}
