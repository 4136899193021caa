"""Optional model components on the anthropic SDK. Nothing here is imported until a model component is used."""
