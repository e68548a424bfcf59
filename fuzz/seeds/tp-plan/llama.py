# tp_plan as a Python dict, the form transformers' configuration files use
base_model_tp_plan = {
    "layers.*.self_attn.q_proj": "colwise",
    'layers.*.self_attn.k_proj': "colwise",
    "layers.*.self_attn.v_proj": "colwise",  # keys and values alike
    "layers.*.self_attn.o_proj": "rowwise",
    "layers.*.mlp.gate_proj": "colwise",
    "layers.*.mlp.up_proj": "colwise",
    "layers.*.mlp.down_proj": "rowwise",
}
