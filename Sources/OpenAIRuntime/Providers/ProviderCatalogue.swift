import Foundation

/// The catalogue of ``ProviderPreset``s: one JSON object per provider, read once. Adding a
/// provider is adding an entry here (a ``ProviderPreset`` in JSON; a `dialect` member left out is
/// OpenAI's behaviour, and only what a provider documents as different is written). `sources`
/// name the documentation each entry's facts come from (read 2026-12).
enum ProviderCatalogue {
    static let presets: [ProviderPreset] = {
        do {
            return try OrderedJSONDecoder().decode([ProviderPreset].self, from: Data(json.utf8))
        } catch {
            preconditionFailure("The provider catalogue does not decode: \(error)")
        }
    }()

    private static let json = #"""
        [
        {"id": "openai", "name": "OpenAI", "baseURL": "https://api.openai.com/v1", "apiKeyVariable": "OPENAI_API_KEY",
         "sources": ["https://platform.openai.com/docs/api-reference/chat/create"]},
        {"id": "anthropic", "name": "Anthropic", "baseURL": "https://api.anthropic.com/v1",
         "apiKeyVariable": "ANTHROPIC_API_KEY",
         "dialect": {"ignoredMembers": ["logprobs", "top_logprobs", "logit_bias", "metadata", "prediction",
           "presence_penalty", "frequency_penalty", "seed", "service_tier", "audio", "modalities", "store", "user",
           "response_format",
           "reasoning_effort"]},
         "sources": ["https://docs.anthropic.com/en/api/openai-sdk"]},
        {"id": "cerebras", "name": "Cerebras", "baseURL": "https://api.cerebras.ai/v1", "apiKeyVariable": "CEREBRAS_API_KEY",
         "sources": ["https://inference-docs.cerebras.ai/resources/openai"]},
        {"id": "deepseek", "name": "DeepSeek", "baseURL": "https://api.deepseek.com", "apiKeyVariable": "DEEPSEEK_API_KEY",
         "dialect": {"maxTokensMember": "max_tokens"},
         "sources": ["https://api-docs.deepseek.com/api/create-chat-completion",
           "https://api-docs.deepseek.com/guides/thinking_mode"]},
        {"id": "fireworks", "name": "Fireworks AI", "baseURL": "https://api.fireworks.ai/inference/v1",
         "apiKeyVariable": "FIREWORKS_API_KEY", "dialect": {"maxTokensMember": "max_tokens"},
         "sources": ["https://docs.fireworks.ai/tools-sdks/openai-compatibility"]},
        {"id": "gemini", "name": "Google Gemini", "baseURL": "https://generativelanguage.googleapis.com/v1beta/openai",
         "apiKeyVariable": "GEMINI_API_KEY", "sources": ["https://ai.google.dev/gemini-api/docs/openai"]},
        {"id": "groq", "name": "Groq", "baseURL": "https://api.groq.com/openai/v1", "apiKeyVariable": "GROQ_API_KEY",
         "dialect": {"unsupportedMembers": ["logprobs", "top_logprobs", "logit_bias"]},
         "sources": ["https://console.groq.com/docs/openai"]},
        {"id": "huggingface", "name": "Hugging Face", "baseURL": "https://router.huggingface.co/v1",
         "apiKeyVariable": "HF_TOKEN", "dialect": {"maxTokensMember": "max_tokens"},
         "sources": ["https://huggingface.co/docs/inference-providers/tasks/chat-completion"]},
        {"id": "mistral", "name": "Mistral AI", "baseURL": "https://api.mistral.ai/v1", "apiKeyVariable": "MISTRAL_API_KEY",
         "dialect": {"maxTokensMember": "max_tokens", "acceptsStreamOptions": false,
           "renamedMembers": {"seed": "random_seed"}},
         "sources": ["https://docs.mistral.ai/api/#tag/chat",
           "https://github.com/mistralai/client-python/blob/main/docs/models/chatcompletionrequest.md"]},
        {"id": "openrouter", "name": "OpenRouter", "baseURL": "https://openrouter.ai/api/v1",
         "apiKeyVariable": "OPENROUTER_API_KEY", "dialect": {"reasoning": "reasoning_object"},
         "sources": ["https://openrouter.ai/docs/api/reference/parameters"]},
        {"id": "perplexity", "name": "Perplexity", "baseURL": "https://api.perplexity.ai",
         "apiKeyVariable": "PERPLEXITY_API_KEY", "dialect": {"maxTokensMember": "max_tokens"},
         "sources": ["https://docs.perplexity.ai/docs/sonar/openai-compatibility"]},
        {"id": "together", "name": "Together AI", "baseURL": "https://api.together.ai/v1",
         "apiKeyVariable": "TOGETHER_API_KEY", "dialect": {"maxTokensMember": "max_tokens"},
         "sources": ["https://docs.together.ai/docs/openai-api-compatibility"]},
        {"id": "xai", "name": "xAI", "baseURL": "https://api.x.ai/v1", "apiKeyVariable": "XAI_API_KEY",
         "sources": ["https://docs.x.ai/api"]},
        {"id": "alibaba", "name": "Alibaba Cloud Model Studio",
         "baseURL": "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "apiKeyVariable": "DASHSCOPE_API_KEY",
         "sources": ["https://www.alibabacloud.com/help/en/model-studio/compatibility-of-openai-with-dashscope"]},
        {"id": "zai", "name": "Z.ai", "baseURL": "https://api.z.ai/api/paas/v4", "apiKeyVariable": "ZAI_API_KEY",
         "dialect": {"maxTokensMember": "max_tokens"},
         "sources": ["https://github.com/zai-org/z-ai-sdk-python/blob/main/src/zai/api_resource/chat/completions.py"]},
        {"id": "ollama", "name": "Ollama", "baseURL": "http://localhost:11434/v1", "dialect": {"maxTokensMember": "max_tokens"},
         "sources": ["https://docs.ollama.com/api/openai-compatibility"]},
        {"id": "lmstudio", "name": "LM Studio", "baseURL": "http://localhost:1234/v1", "dialect": {"maxTokensMember": "max_tokens"},
         "sources": ["https://lmstudio.ai/docs/api/openai-api"]},
        {"id": "vllm", "name": "vLLM", "baseURL": "http://localhost:8000/v1", "dialect": {"ignoredMembers": ["user"]},
         "sources": ["https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html"]}
        ]
        """#
}
